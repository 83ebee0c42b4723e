#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A small SVG writer for the plots: elements are appended as text, attributes escaped.
/// The output is self-contained: generic font families only, no scripts, no external references.
struct PlotSVG {
    let width: Double
    let height: Double
    private(set) var body = ""

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// The finished document.
    func document(title: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.n(width))" height="\(Self.n(height))" \
        viewBox="0 0 \(Self.n(width)) \(Self.n(height))" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" \
        font-size="12">
        <title>\(Self.escape(title))</title>
        <rect x="0" y="0" width="\(Self.n(width))" height="\(Self.n(height))" fill="#ffffff"/>
        \(body)</svg>

        """
    }

    /// Appends `<name attributes/>`, or `<name attributes>text</name>` when `text` is given.
    mutating func element(_ name: String, _ attributes: KeyValuePairs<String, String>, text: String? = nil) {
        body += "<" + name
        for (key, value) in attributes { body += " \(key)=\"\(Self.escape(value))\"" }
        if let text {
            body += ">" + Self.escape(text) + "</\(name)>\n"
        } else {
            body += "/>\n"
        }
    }

    mutating func open(_ name: String, _ attributes: KeyValuePairs<String, String>) {
        body += "<" + name
        for (key, value) in attributes { body += " \(key)=\"\(Self.escape(value))\"" }
        body += ">\n"
    }

    mutating func close(_ name: String) { body += "</\(name)>\n" }

    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, stroke: String, width: Double = 1,
                       dash: String? = nil, className: String? = nil) {
        var attributes: [(String, String)] = [("x1", Self.n(x1)), ("y1", Self.n(y1)), ("x2", Self.n(x2)),
                                              ("y2", Self.n(y2)), ("stroke", stroke),
                                              ("stroke-width", Self.n(width))]
        if let dash { attributes.append(("stroke-dasharray", dash)) }
        if let className { attributes.append(("class", className)) }
        raw("line", attributes)
    }

    mutating func text(_ text: String, x: Double, y: Double, anchor: String = "start", size: Double = 12,
                       weight: String? = nil, fill: String = "#222222", rotate: Double? = nil, className: String? = nil,
                       halo: Bool = false) {
        var attributes: [(String, String)] = [("x", Self.n(x)), ("y", Self.n(y)), ("text-anchor", anchor),
                                              ("font-size", Self.n(size)), ("fill", fill)]
        if halo {
            // A white outline under the glyphs keeps labels readable over the curves.
            attributes += [("stroke", "#ffffff"), ("stroke-width", "3"), ("paint-order", "stroke"),
                           ("stroke-linejoin", "round")]
        }
        if let weight { attributes.append(("font-weight", weight)) }
        if let rotate { attributes.append(("transform", "rotate(\(Self.n(rotate)) \(Self.n(x)) \(Self.n(y)))")) }
        if let className { attributes.append(("class", className)) }
        raw("text", attributes, text: text)
    }

    /// Appends an element from an ordered attribute list.
    mutating func raw(_ name: String, _ attributes: [(String, String)], text: String? = nil) {
        body += "<" + name
        for (key, value) in attributes { body += " \(key)=\"\(Self.escape(value))\"" }
        if let text {
            body += ">" + Self.escape(text) + "</\(name)>\n"
        } else {
            body += "/>\n"
        }
    }

    /// A coordinate with at most 2 decimals and no trailing zeros (keeps files small).
    static func n(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        // From 10¹⁵ on a Double has no hundredths to show, and past Int.max no Int to convert to.
        guard abs(value) < 1e15 else { return "\(value)" }
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        var text = FixedDecimals.format(rounded, decimals: 2)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            // XML 1.0 has no place for the other C0 controls (a file name may hold one), nor for
            // U+FFFE and U+FFFF, not even as references: each becomes U+FFFD.
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// Tick values at "nice" steps (1, 2, 2.5 or 5 × 10ⁿ) covering a range.
struct PlotScale {
    /// Range drawn, extended outward to whole steps.
    var lower: Double
    var upper: Double
    var step: Double

    /// About `count` ticks over `[minimum, maximum]`.
    init(_ minimum: Double, _ maximum: Double, count: Int = 6) {
        var minimum = minimum, maximum = maximum
        if !(maximum > minimum) {
            minimum -= 1
            maximum += 1
        }
        // Divided first: a span beyond the largest Double (-1e308 to 1e308) is still a number.
        let raw = maximum / Double(max(1, count)) - minimum / Double(max(1, count))
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let residual = raw / magnitude
        let nice: Double = residual <= 1 ? 1 : residual <= 2 ? 2 : residual <= 2.5 ? 2.5 : residual <= 5 ? 5 : 10
        step = nice * magnitude
        lower = (minimum / step).rounded(.down) * step
        upper = (maximum / step).rounded(.up) * step
    }

    /// The ticks from `lower` to `upper`; none when they are not finite (a range beyond the
    /// largest Double rounded outward).
    var ticks: [Double] {
        let steps = (upper / step - lower / step).rounded()
        guard steps.isFinite, steps >= 0, steps <= 1000 else { return [] }
        return (0...Int(steps)).map { lower + Double($0) * step }
    }

    /// A tick label with as many decimals as the step needs.
    func label(_ value: Double) -> String {
        var decimals = 0
        var scaled = step
        while decimals < 6 && abs(scaled - scaled.rounded()) > 1e-9 * max(1, abs(scaled)) {
            scaled *= 10
            decimals += 1
        }
        return FixedDecimals.formatReadably(abs(value) < step / 1e6 ? 0 : value, decimals: decimals)
    }
}

/// Writes plot files.
public enum PlotFile {
    /// Writes `text` to `path` whole or not at all (a temporary file beside it, `fsync`, then a
    /// rename). An existing file is kept unless `overwrite` is true, even one that appears while
    /// writing. Errors name the path and why, in the system's words.
    public static func write(_ text: String, to path: String, overwrite: Bool = false) throws(PlotFileError) {
        do throws(WholeFileWriter.Failure) {
            try WholeFileWriter.write(Array(text.utf8), to: path, overwrite: overwrite)
        } catch {
            throw PlotFileError(path: path, message: error.message)
        }
    }
}

/// A plot could not be written.
public struct PlotFileError: Error, CustomStringConvertible, Equatable {
    public var path: String
    public var message: String
    public var description: String { "\(path): \(message)" }
}
