/// A usage mistake on the command line. The tool prints it as `Error: …` with the usage line
/// and exits with status 64 (`EX_USAGE`).
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The result of parsing one command's arguments against its `CommandSpec`.
public struct ParsedArguments: Sendable {
    public private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    public private(set) var helpRequested = false

    /// Parses `arguments` (without the tool and command names).
    ///
    /// Accepts `--name value`, `--name=value`, `-o value`, flags, and `--` to end options.
    public init(_ arguments: [String], spec: CommandSpec) throws(UsageError) {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            if argument == "-h" || argument == "--help" {
                helpRequested = true
                continue
            }
            var name: Substring
            var inlineValue: String?
            if argument.hasPrefix("--") {
                name = argument.dropFirst(2)
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = name[..<equals]
                }
            } else {
                name = argument.dropFirst()
                if name.count > 1 {
                    inlineValue = String(name.dropFirst())
                    name = name.prefix(1)
                }
            }
            let isShort = !argument.hasPrefix("--")
            guard let option = spec.options.first(where: {
                isShort ? $0.short.map(String.init) == String(name) : $0.name == name
            }) else {
                throw UsageError(Self.unknownOptionMessage(argument, spec: spec))
            }
            if option.isFlag {
                if inlineValue != nil {
                    throw UsageError("The flag '--\(option.name)' does not take a value")
                }
                flags.insert(option.name)
                continue
            }
            var value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                // `-o --force`: the option's value is missing, not a file named "--force" (as
                // swift-argument-parser has it). Negative numbers and `-` are values.
                if Self.isOption(value, spec: spec) {
                    throw UsageError("Missing value for '\(argument) <\(option.valueName ?? "value")>': '\(value)' is an option "
                        + "(for a value that begins so, write --\(option.name)=\(value))")
                }
                index += 1
            } else {
                throw UsageError("Missing value for '\(argument) <\(option.valueName ?? "value")>'")
            }
            // `-o "$OUT"` with OUT unset: "Error: : cannot open…" named nothing.
            if value.isEmpty && !option.allowsEmptyValue {
                throw UsageError("Empty value for '\(isShort ? "-" : "--")\(name) <\(option.valueName ?? "value")>' "
                    + "(an unset shell variable?)")
            }
            if let allowed = option.allowedValues, !allowed.contains(value) {
                if let canonical = option.canonicalValue?(value), allowed.contains(canonical) {
                    value = canonical
                } else {
                    throw UsageError(
                        "The value '\(value)' is invalid for '--\(option.name) <\(option.valueName ?? "value")>'"
                            + " (values: \(allowed.joined(separator: ", ")))"
                    )
                }
            }
            if values[option.name] != nil && !option.repeats {
                throw UsageError("The option '--\(option.name)' was given more than once")
            }
            values[option.name, default: []].append(value)
        }
        if helpRequested { return }
        try checkPositionals(spec: spec)
    }

    /// Whether `argument` is one of `spec`'s options (or help), as `--name`, `--name=value`,
    /// `-x` or `-xvalue`.
    static func isOption(_ argument: String, spec: CommandSpec) -> Bool {
        if argument == "-h" || argument == "--help" { return true }
        if argument.hasPrefix("--") {
            let name = argument.dropFirst(2).prefix { $0 != "=" }
            return spec.options.contains { $0.name == name }
        }
        guard argument.hasPrefix("-"), let letter = argument.dropFirst().first else { return false }
        return spec.options.contains { $0.short == letter }
    }

    private func checkPositionals(spec: CommandSpec) throws(UsageError) {
        // `shake replay "$FILE"` with FILE unset: "Error: : cannot open…" named nothing.
        if let empty = positionals.firstIndex(of: ""), !spec.arguments.isEmpty {
            let argument = spec.arguments[min(empty, spec.arguments.count - 1)]
            throw UsageError("An empty argument where '\(argument.usageText)' goes (an unset shell variable?)")
        }
        let required = spec.arguments.filter { !$0.optional }.count
        if positionals.count < required {
            let missing = spec.arguments.filter { !$0.optional }[positionals.count]
            throw UsageError("Missing expected argument '\(missing.usageText)'")
        }
        let variadic = spec.arguments.contains { $0.variadic }
        if !variadic && positionals.count > spec.arguments.count {
            throw UsageError("Unexpected argument '\(positionals[spec.arguments.count])'")
        }
    }

    private static func unknownOptionMessage(_ argument: String, spec: CommandSpec) -> String {
        let name = argument.split(separator: "=").first.map(String.init) ?? argument
        var message = "Unknown option '\(name)'"
        if spec.options.contains(where: { $0.name == "config" }),
           let hint = DetectorOptions.parameterHint(forOption: name, tuning: spec.options.contains { $0.name == "range" }) {
            return message + ": " + hint
        }
        let candidates = spec.options.filter { !$0.isHidden }.map { "--\($0.name)" } + ["--help"]
        let best = candidates.map { ($0, editDistance($0, name)) }.min { $0.1 < $1.1 }
        if let best, best.1 <= max(2, name.count / 3) {
            message += "\nDid you mean '\(best.0)'?"
        }
        return message
    }

    /// The value of `--name`, or nil when it was not given.
    public func value(_ name: String) -> String? { values[name]?.last }

    /// All values of a repeating option, in order.
    public func values(_ name: String) -> [String] { values[name] ?? [] }

    /// Whether the flag `--name` was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// `--name` as a finite number, or nil when it was not given.
    public func double(_ name: String, range: ClosedRange<Double>? = nil) throws(UsageError) -> Double? {
        guard let text = value(name) else { return nil }
        guard let number = Double(text), number.isFinite else {
            throw UsageError("The value '\(text)' is invalid for '--\(name)': expected a number"
                + Self.unitHint(text, name: name, range: range))
        }
        if let range, !range.contains(number) {
            throw UsageError("The value '\(text)' is invalid for '--\(name)': expected "
                + "\(shortestDecimal(range.lowerBound)) to \(shortestDecimal(range.upperBound))")
        }
        return number
    }

    /// `--name` as an integer, or nil when it was not given.
    public func int(_ name: String, range: ClosedRange<Int>? = nil) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text) else {
            var hint = ""
            if let number = Self.numberBeforeUnit(text).flatMap({ Int($0) }) {
                if let range, !range.contains(number) {
                    hint = ", without its unit, \(range.lowerBound) to \(range.upperBound)"
                } else {
                    hint = ", without its unit (--\(name) \(number))"
                }
            }
            throw UsageError("The value '\(text)' is invalid for '--\(name)': expected a whole number" + hint)
        }
        if let range, !range.contains(number) {
            throw UsageError(
                "The value '\(text)' is invalid for '--\(name)': expected \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}

extension ParsedArguments {
    /// What follows "expected a number" for a value with a unit (`200Hz`, `10%`): the number
    /// alone when the option takes it; for a percentage the option takes as a fraction (`--jitter
    /// 10%`), the fraction; for a number beyond the option's range, the range (the number alone
    /// would be refused next: `--jitter 10` for `10%` was suggested); "" without a unit.
    static func unitHint(_ text: String, name: String, range: ClosedRange<Double>?) -> String {
        guard let number = numberBeforeUnit(text), let value = Double(number) else { return "" }
        guard let range, !range.contains(value) else { return ", without its unit (--\(name) \(number))" }
        if text.trimmingWhitespace().hasSuffix("%"), range.contains(value / 100) {
            return ", as a fraction (--\(name) \(shortestDecimal(value / 100)))"
        }
        return ", without its unit, \(shortestDecimal(range.lowerBound)) to \(shortestDecimal(range.upperBound))"
    }

    /// The number a value begins with when a unit follows it (`200Hz`, `5 s`, `12m/s2`, `2g`):
    /// the number as written; nil for a value that is no number followed by a unit, and for a
    /// number whose exponent puts it beyond a Double (`1e400`: its `e400` is no unit).
    static func numberBeforeUnit(_ text: String) -> String? {
        let characters = Array(text)
        for end in stride(from: characters.count - 1, through: 1, by: -1) {
            let number = String(characters[..<end]).trimmingWhitespace()
            let unit = characters[end...].drop { $0 == " " }
            guard let first = unit.first, first.isLetter || "/°%".contains(first),
                  let value = Double(number), value.isFinite else { continue }
            if "eE".contains(first), unit.count > 1,
               unit.dropFirst().drop(while: { "+-".contains($0) }).allSatisfy(\.isNumber) { return nil }
            return number
        }
        return nil
    }
}

/// Levenshtein distance, for "Did you mean" suggestions.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1,
                             previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
