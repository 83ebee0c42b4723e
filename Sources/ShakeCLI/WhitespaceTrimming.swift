extension StringProtocol {
    /// The text without the white space at either end that Foundation's
    /// `trimmingCharacters(in: .whitespaces)` removed (the tool no longer links Foundation):
    /// tabs, the Unicode space separators (general category Zs: U+0020, U+00A0, U+2000 to
    /// U+200A, U+3000 and the rest) and the zero width space U+200B, but not line ends. Trimmed
    /// scalar by scalar, as Foundation did: a combining mark after a space stays, without the space.
    func trimmingWhitespace() -> String {
        let scalars = String(self).unicodeScalars
        func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
        }
        guard let first = scalars.firstIndex(where: { !isWhitespace($0) }),
              let last = scalars.lastIndex(where: { !isWhitespace($0) }) else { return "" }
        return String(Substring(scalars[first...last]))
    }
}
