/// A declared option of a command, in the image of swift-argument-parser's `@Option` and `@Flag`.
public struct OptionSpec: Sendable {
    /// Long name without dashes, e.g. `"preset"` for `--preset`.
    public var name: String
    /// Optional one-letter short name, e.g. `"o"` for `-o`.
    public var short: Character?
    /// Placeholder for the value (`"file"` shows as `<file>`); nil for a flag.
    public var valueName: String?
    public var help: String
    /// Allowed values, checked while parsing and listed in help.
    public var allowedValues: [String]?
    /// Another spelling of an allowed value (`;` for `semicolon`, `m/s²` for `m/s^2`), mapped to
    /// the value it names; nil when it names none. The parser keeps the allowed value.
    public var canonicalValue: (@Sendable (String) -> String?)?
    /// Shown in help as `default: …`.
    public var defaultValue: String?
    /// Whether the option may be given more than once.
    public var repeats: Bool
    /// Accepted but left out of help and suggestions (a former name kept working).
    public var isHidden = false
    /// Whether an empty value means something (`--choices ''`: no answers); otherwise it is a
    /// usage error, as it mostly comes of an unset shell variable.
    public var allowsEmptyValue = false

    public static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: nil, help: help, allowedValues: nil,
                   canonicalValue: nil, defaultValue: nil, repeats: false)
    }

    public static func option(
        _ name: String, short: Character? = nil, value: String, help: String,
        values: [String]? = nil, canonical: (@Sendable (String) -> String?)? = nil,
        default defaultValue: String? = nil, repeats: Bool = false, allowsEmpty: Bool = false
    ) -> OptionSpec {
        var option = OptionSpec(name: name, short: short, valueName: value, help: help, allowedValues: values,
                                canonicalValue: canonical, defaultValue: defaultValue, repeats: repeats)
        option.allowsEmptyValue = allowsEmpty
        return option
    }

    /// `option`, accepted but not shown in help (swift-argument-parser's `.hidden` visibility).
    public static func hidden(_ option: OptionSpec) -> OptionSpec {
        var option = option
        option.isHidden = true
        return option
    }

    var isFlag: Bool { valueName == nil }

    var displayNames: String {
        var text = short.map { "-\($0), " } ?? ""
        text += "--\(name)"
        if let valueName { text += " <\(valueName)>" }
        return text
    }
}

/// A declared positional argument.
public struct ArgumentSpec: Sendable {
    public var name: String
    public var help: String
    /// Accepts one or more values (`FILE...`).
    public var variadic: Bool
    public var optional: Bool

    public init(_ name: String, help: String, variadic: Bool = false, optional: Bool = false) {
        self.name = name
        self.help = help
        self.variadic = variadic
        self.optional = optional
    }

    var usageText: String {
        let core = "<\(name)>" + (variadic ? " ..." : "")
        return optional ? "[\(core)]" : core
    }
}

/// Everything the parser and the help screen need to know about one command.
public struct CommandSpec: Sendable {
    public var name: String
    public var abstract: String
    public var discussion: String
    public var arguments: [ArgumentSpec]
    public var options: [OptionSpec]

    public init(name: String, abstract: String, discussion: String = "",
                arguments: [ArgumentSpec] = [], options: [OptionSpec] = []) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
    }

    /// `shake replay [--config <file>] <file> ...`
    ///
    /// With more than four options they are summarised as `[<options>]`, as swift-argument-parser does.
    func usage(toolName: String) -> String {
        var parts = ["\(toolName) \(name)"]
        let options = options.filter { !$0.isHidden }
        if options.count > 4 { parts.append("[<options>]") }
        for option in options where options.count <= 4 {
            let value = option.valueName.map { " <\($0)>" } ?? ""
            let names = option.short.map { "-\($0)" } ?? "--\(option.name)"
            parts.append("[\(names)\(value)]" + (option.repeats ? " ..." : ""))
        }
        parts += arguments.map(\.usageText)
        return parts.joined(separator: " ")
    }

    func help(toolName: String) -> String {
        var text = "OVERVIEW: \(abstract)\n"
        if !discussion.isEmpty { text += "\n" + wrapped(discussion, width: 100) + "\n" }
        text += "\nUSAGE: \(usage(toolName: toolName))\n"
        if !arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in arguments { text += helpLine(argument.usageText, argument.help) }
        }
        text += "\nOPTIONS:\n"
        for option in options where !option.isHidden {
            var help = option.help
            var notes: [String] = []
            if let values = option.allowedValues { notes.append("values: " + values.joined(separator: ", ")) }
            if let value = option.defaultValue { notes.append("default: \(value)") }
            if !notes.isEmpty { help += " (" + notes.joined(separator: "; ") + ")" }
            text += helpLine(option.displayNames, help)
        }
        text += helpLine("-h, --help", "Show help information.")
        return text
    }
}

/// Formats `  name   help` with the help column at 26, wrapping long help text.
func helpLine(_ name: String, _ help: String, width: Int = 100) -> String {
    let column = 26
    var line = "  " + name
    var lines: [String] = []
    if line.count >= column - 1 {
        lines.append(line)
        line = ""
    }
    let words = help.split(separator: " ", omittingEmptySubsequences: true)
    var current = line.padding(toLength: column)
    var currentHasWords = false
    for word in words {
        if currentHasWords && current.count + 1 + word.count > width {
            lines.append(current)
            current = String(repeating: " ", count: column)
            currentHasWords = false
        }
        current += (currentHasWords ? " " : "") + word
        currentHasWords = true
    }
    lines.append(current)
    return lines.joined(separator: "\n") + "\n"
}

/// Wraps each paragraph of `text` at `width` columns, breaking between words.
func wrapped(_ text: String, width: Int) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { paragraph in
        var lines: [String] = []
        var current = ""
        for word in paragraph.split(separator: " ") {
            if !current.isEmpty && current.count + 1 + word.count > width {
                lines.append(current)
                current = ""
            }
            current += (current.isEmpty ? "" : " ") + word
        }
        lines.append(current)
        return lines.joined(separator: "\n")
    }.joined(separator: "\n")
}

extension String {
    func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
