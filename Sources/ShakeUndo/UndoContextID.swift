/// Names an undo context: a document, a screen, a form; whatever the user thinks of as the
/// place their changes live. Write it as a string literal: `"invoice-42"`.
public struct UndoContextID: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }
}
