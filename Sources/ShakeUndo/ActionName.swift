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
/// 4. Length rule: the normalised name may be at most `maximumLength` (24) columns wide, a
///    column being a character (grapheme cluster) of Latin, Greek or Cyrillic text and a wide
///    character (see `isWide(_:)`: CJK, Hangul, kana, fullwidth forms, emoji) taking two, as it
///    does on a screen: "Undo " plus 24 columns is a 29-column title, whether the name is 24
///    letters or 12 ideographs. A wider name is **rejected** with `ActionNameError.tooLong`
///    rather than truncated: a truncated button title is hard to decipher, and the words
///    to keep are the app's choice.
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

    /// Widest normalised name accepted, in columns (see `width(of:)`): 24 characters of Latin
    /// text, 12 wide ones. Default 24.
    public static let maximumLength = 24

    /// Words written in lower case unless last (compared case-insensitively):
    /// the articles *a, an, the*; the coordinating conjunctions *and, but, or, nor, for, so, yet*;
    /// and the prepositions of four or fewer letters *amid, as, at, atop, by, down, for, from, in,
    /// into, like, near, of, off, on, onto, out, over, past, per, than, till, to, unto, up, upon,
    /// via, with*.
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
        "amid", "as", "at", "atop", "by", "down", "from", "in", "into", "like", "near", "of", "off",
        "on", "onto", "out", "over", "past", "per", "than", "till", "to", "unto", "up", "upon",
        "via", "with",
    ]

    /// Normalises `raw` (see the type's documentation).
    ///
    /// - Parameter titleCase: apply the English title-style capitalisation (step 3); false
    ///   keeps the letters as written, for a name in another language.
    /// - Throws: `ActionNameError.empty` when nothing but whitespace and punctuation is left;
    ///   `ActionNameError.tooLong` when the normalised name is wider than `maximumLength`
    ///   columns.
    public init(_ raw: String, titleCase: Bool = true) throws(ActionNameError) {
        let text = ActionName.normalise(raw, titleCase: titleCase)
        if text.isEmpty { throw .empty(raw: raw) }
        let width = ActionName.width(of: text)
        if width > ActionName.maximumLength {
            throw .tooLong(name: text, length: width, limit: ActionName.maximumLength)
        }
        self.text = text
    }

    /// The columns `text` takes on a screen: one per character (grapheme cluster), two per wide
    /// character (`isWide(_:)`).
    public static func width(of text: String) -> Int {
        text.reduce(0) { $0 + (isWide($1) ? 2 : 1) }
    }

    /// Whether `character` takes two columns, as East Asian text and emoji do beside Latin
    /// letters: one whose first scalar is in the wide or fullwidth ranges of Unicode's East Asian
    /// Width property (Hangul Jamo leads, CJK radicals, symbols and punctuation, kana, CJK
    /// ideographs of every plane, Yi, Hangul syllables, CJK compatibility forms, fullwidth
    /// forms), or an emoji shown as such (default emoji presentation, or followed by the emoji
    /// variation selector U+FE0F; flags too).
    public static func isWide(_ character: Character) -> Bool {
        guard let first = character.unicodeScalars.first else { return false }
        if first.properties.isEmojiPresentation || character.unicodeScalars.contains("\u{FE0F}") {
            return true
        }
        switch first.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
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
    /// The normalised `name` is `length` columns wide (`ActionName.width(of:)`), more than `limit`.
    case tooLong(name: String, length: Int, limit: Int)

    public var description: String {
        switch self {
        case .empty(let raw):
            return "action name \"\(raw)\" is empty after removing whitespace and punctuation"
        case .tooLong(let name, let length, let limit):
            if length == name.count {
                return "action name \"\(name)\" has \(length) characters; at most \(limit) fit in a button title"
            }
            return "action name \"\(name)\" is \(length) columns wide (\(name.count) characters, a wide one taking two); "
                + "at most \(limit) fit in a button title"
        }
    }
}
