/// A brief name for an undoable action, as it appears after "Undo " or "Redo " in a button title
/// ("Delete Name" in "Undo Delete Name").
///
/// `ActionName` normalises what it is given, so every name reads the same way in a prompt:
///
/// 1. Control characters and invisible formatting (see `isInvisible(_:)`: a zero-width space,
///    a soft hyphen, the directional marks, embeddings, overrides and isolates, which show
///    nothing in a button or turn its text around) are removed. Runs of whitespace (spaces,
///    tabs, newlines, and the blanks that are letters or symbols by Unicode: see `isBlank(_:)`)
///    become one space; leading and trailing whitespace is removed.
/// 2. Trailing punctuation (see `trailingPunctuation`: full stops, commas, colons, semicolons,
///    exclamation and question marks, ellipses, dashes) is removed ("Delete Name." and
///    "Delete Name!" become "Delete Name"), repeatedly, together with any whitespace it leaves at
///    the end; a Spanish opening mark (¿, ¡) whose closing mark went with it goes too. Closing
///    brackets and quotes stay, so "Rename (Draft)" keeps its parenthesis;
///    punctuation inside the name (an apostrophe, a hyphen) is kept.
/// 3. Title-style capitalisation, word by word (a word is what lies between spaces):
///    - a *minor word* (see `minorWords`: articles, coordinating conjunctions, prepositions of
///      four or fewer letters) is written in lower case, unless it is the last word; the first
///      word of the name is not the title's first word ("Undo" is), so "the address" becomes
///      "the Address" ("Undo the Address", not "Undo The Address");
///    - every other word, and the last word, gets an upper-case first letter;
///      the rest of the word is kept as written, so "URL" and "iPhone" survive. A word written
///      in lower case is capitalised ("name" → "Name"); a word that already contains a capital
///      letter after its first letter ("iPhone", "macOS") is left exactly as written.
/// 4. Length rule: the normalised name may have at most `maximumLength` (24) characters
///    (grapheme clusters). A longer name is **rejected** with `ActionNameError.tooLong`
///    rather than truncated: a truncated button title is hard to decipher, and the words
///    to keep are the app's choice. "Undo " plus 24 characters is a 29-character title.
///
/// A name that is empty after normalisation is rejected with `ActionNameError.empty`;
/// an unnamed action is written as `nil` (its titles are plain "Undo" / "Redo").
///
/// The capitalisation rule is English. An app that localises its titles (see `UndoTitles`)
/// passes `titleCase: false`: the name is then kept as written ("Namen löschen"), with steps 1,
/// 2 and 4 still applied.
public struct ActionName: Sendable, Hashable, CustomStringConvertible {
    /// The normalised name, for example "Delete Name".
    public let text: String

    /// Punctuation removed from the end of a name.
    public static let trailingPunctuation: Set<Character> = [
        ".", ",", ";", ":", "!", "?", "…", "‼", "⁇", "⁈", "⁉", "-", "‐", "–", "—",
        "。", "、", "，", "；", "：", "！", "？",
    ]

    /// Longest normalised name accepted, in characters (grapheme clusters). Default 24.
    public static let maximumLength = 24

    /// Words written in lower case unless last (compared case-insensitively):
    /// the articles *a, an, the*; the coordinating conjunctions *and, but, or, nor, for, so, yet*;
    /// and the prepositions of four or fewer letters *as, at, by, down, for, from, in, into,
    /// like, near, of, off, on, onto, out, over, past, per, than, till, to, unto, up, upon, via,
    /// with*.
    ///
    /// Words such as "up", "out", "off", "down" and "over" are also adverbs in phrasal verbs
    /// ("Turn Off Sound"); the rule cannot tell the two uses apart and lowers them in the middle
    /// of a name. At the end of a name they are capitalised ("Clean Up").
    public static let minorWords: Set<String> = [
        // articles
        "a", "an", "the",
        // coordinating conjunctions
        "and", "but", "or", "nor", "for", "so", "yet",
        // prepositions of four or fewer letters
        // ("for" is listed once, above)
        "as", "at", "by", "down", "from", "in", "into", "like", "near", "of", "off", "on",
        "onto", "out", "over", "past", "per", "than", "till", "to", "unto", "up", "upon", "via",
        "with",
    ]

    /// Normalises `raw` (see the type's documentation).
    ///
    /// - Parameter titleCase: apply the English title-style capitalisation (step 3); false
    ///   keeps the letters as written, for a name in another language.
    /// - Throws: `ActionNameError.empty` when nothing but whitespace and punctuation is left;
    ///   `ActionNameError.tooLong` when the normalised name has more than `maximumLength`
    ///   characters.
    public init(_ raw: String, titleCase: Bool = true) throws(ActionNameError) {
        let text = ActionName.normalise(raw, titleCase: titleCase)
        if text.isEmpty { throw .empty(raw: raw) }
        let count = text.count
        if count > ActionName.maximumLength {
            throw .tooLong(name: text, length: count, limit: ActionName.maximumLength)
        }
        self.text = text
    }

    public var description: String { text }

    /// Whether normalisation removes `scalar` (step 1): a control character other than
    /// whitespace (NUL, escape, …), or invisible formatting: the zero-width space (U+200B), the
    /// word joiner (U+2060), the invisible operators (U+2061 to U+2064), the soft hyphen
    /// (U+00AD), the Mongolian vowel separator (U+180E), the byte order mark (U+FEFF), the
    /// directional marks (U+200E, U+200F, U+061C), embeddings and overrides (U+202A to U+202E),
    /// isolates (U+2066 to U+2069) and the deprecated shaping controls (U+206A to U+206F).
    /// Zero-width joiners (U+200C, U+200D) stay: emoji sequences and Persian or Indic words
    /// need them; so do tag characters (a subdivision flag is made of them).
    public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.generalCategory == .control { return !scalar.properties.isWhitespace }
        switch scalar.value {
        case 0x200B, 0x2060...0x2064, 0x00AD, 0x180E, 0xFEFF, 0x200E, 0x200F, 0x061C, 0x202A...0x202E,
             0x2066...0x206F: return true
        default: return false
        }
    }

    /// Whether `scalar` is a blank that Unicode does not count as whitespace (step 1 takes it
    /// for a space): the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0) and the blank braille
    /// pattern (U+2800). Alone, each made a name that showed as nothing ("Undo ").
    public static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800: return true
        default: return false
        }
    }

    /// The normalisation applied by `init(_:)`, without the length check. Exposed for tools
    /// that want to show what a name would become.
    public static func normalise(_ raw: String, titleCase: Bool = true) -> String {
        let shown = raw.unicodeScalars.contains(where: { isInvisible($0) || isBlank($0) })
            ? String(String.UnicodeScalarView(raw.unicodeScalars.lazy.filter { !isInvisible($0) }.map { isBlank($0) ? " " : $0 }))
            : raw
        var words = shown.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        // Strip trailing punctuation, repeatedly: "Delete Name ..." → "Delete Name".
        var stripped: [Character] = []
        while let last = words.last {
            let trimmed = String(last.reversed().drop(while: trailingPunctuation.contains).reversed())
            stripped += last.dropFirst(trimmed.count)
            if trimmed.isEmpty {
                words.removeLast()
            } else {
                words[words.count - 1] = trimmed
                break
            }
        }
        // Spanish opening marks whose closing mark went with the trailing punctuation:
        // "¿Borrar nombre?" → "Borrar nombre", not "¿Borrar nombre".
        for (opening, closing) in [("¿", "?"), ("¡", "!")] as [(Character, Character)] {
            if let first = words.first, first.first == opening, stripped.contains(closing),
               !words.contains(where: { $0.contains(closing) }) {
                let rest = String(first.dropFirst())
                if rest.isEmpty { words.removeFirst() } else { words[0] = rest }
            }
        }
        guard titleCase else { return words.joined(separator: " ") }
        let lastIndex = words.count - 1
        for index in words.indices {
            let word = words[index]
            let lower = word.lowercased()
            // Not the first word's exception: the name follows "Undo " or "Redo " in its title.
            if index != lastIndex && minorWords.contains(lower) {
                words[index] = lower
            } else {
                words[index] = capitalisingFirstLetter(word)
            }
        }
        return words.joined(separator: " ")
    }

    /// Upper-cases the first letter of `word` (after any leading punctuation such as a quote),
    /// unless the word already has a capital after its first letter ("iPhone", "URL").
    private static func capitalisingFirstLetter(_ word: String) -> String {
        guard let first = word.firstIndex(where: { $0.isLetter || $0.isNumber }) else { return word }
        let rest = word[word.index(after: first)...]
        if rest.contains(where: { $0.isUppercase }) { return word }
        return String(word[..<first]) + word[first].uppercased() + rest
    }
}

/// Why a string was refused as an `ActionName`.
public enum ActionNameError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing was left after removing whitespace and trailing punctuation.
    case empty(raw: String)
    /// The normalised `name` has `length` characters, more than `limit`.
    case tooLong(name: String, length: Int, limit: Int)

    public var description: String {
        switch self {
        case .empty(let raw):
            return "action name \"\(raw)\" is empty after removing whitespace and punctuation"
        case .tooLong(let name, let length, let limit):
            return "action name \"\(name)\" has \(length) characters; at most \(limit) fit in a button title"
        }
    }
}
