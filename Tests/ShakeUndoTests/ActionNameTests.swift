import Testing
import ShakeUndo

@Suite struct ActionNameTests {
    static let capitalisation: [(raw: String, expected: String)] = [
        ("delete name", "Delete Name"),
        ("address change.", "Address Change"),
        ("  move   the\tpicture \n", "Move the Picture"),
        // The name's first word is not the title's: "Undo the End", as title style writes it.
        ("the end", "the End"),
        ("a note", "a Note"),
        ("save as", "Save As"),
        ("paste and match style", "Paste and Match Style"),
        ("Copy From Disk Onto Card", "Copy from Disk onto Card"),
        ("move to trash", "Move to Trash"),
        ("bring to front!!", "Bring to Front"),
        ("sort by date…", "Sort by Date"),
        ("set font size?", "Set Font Size"),
        ("typing with a pen", "Typing with a Pen"),
        ("cut, copy or paste", "Cut, Copy or Paste"),
        ("split between pages", "Split Between Pages"),
        ("change URL", "Change URL"),
        ("rename iPhone", "Rename iPhone"),
        ("don't save", "Don't Save"),
        ("clean up", "Clean Up"),
        ("what it is for", "What It Is For"),
        ("crop but keep ratio", "Crop but Keep Ratio"),
        ("cost per unit", "Cost per Unit"),
        ("über änderung", "Über Änderung"),
        ("add 2 items", "Add 2 Items"),
        ("Delete Name ...", "Delete Name"),
        ("rename (draft)", "Rename (Draft)"),
        ("say \"hello\".", "Say \"Hello\""),
        ("undo – ", "Undo"),
        ("删除名称。", "删除名称"),
    ]

    @Test(arguments: capitalisation)
    func namesTakeTitleStyleCapitalisationWithoutTrailingPunctuation(raw: String, expected: String) throws {
        let name = try ActionName(raw)
        #expect(name.text == expected)
    }

    // Defect: a localised name could not escape the English capitalisation ("Namen löschen"
    // became "Namen Löschen widerrufen" under the German titles of `UndoTitles`' example).
    @Test func aLocalisedNameIsKeptAsWrittenWithTitleCaseOff() throws {
        #expect(try ActionName("  Namen   löschen. ", titleCase: false).text == "Namen löschen")
        // The opening mark goes with the closing one, never left unbalanced.
        #expect(try ActionName("¿Borrar nombre?", titleCase: false).text == "Borrar nombre")
        #expect(try ActionName("¡Borrar todo!", titleCase: false).text == "Borrar todo")
        #expect(try ActionName("¿Qué? borrar", titleCase: false).text == "¿Qué? borrar")
        #expect(try ActionName("¡Hola", titleCase: false).text == "¡Hola")  // no closing mark went
        #expect(throws: ActionNameError.empty(raw: " … ")) { try ActionName(" … ", titleCase: false) }
        let stack = UndoStack(titles: UndoTitles { kind, name in
            switch kind {
            case .undo: name.map { "\($0.text) widerrufen" } ?? "Widerrufen"
            case .redo: name.map { "\($0.text) wiederholen" } ?? "Wiederholen"
            case .cancel: "Abbrechen"
            }
        })
        stack.registerUndo { _ in }
        try stack.setActionName("namen löschen", titleCase: false)
        #expect(stack.undoMenuItemTitle == "namen löschen widerrufen")
        try stack.setActionName("namen löschen")
        #expect(stack.undoMenuItemTitle == "Namen Löschen widerrufen")
    }

    @Test(arguments: ActionName.minorWords.sorted())
    func minorWordIsLowerUnlessLast(word: String) throws {
        let capital = word.prefix(1).uppercased() + word.dropFirst()
        #expect(try ActionName("look \(word.uppercased()) there").text == "Look \(word) There")
        // First in the name is second in the title ("Undo the Address").
        #expect(try ActionName("\(word) here").text == "\(word) Here")
        #expect(try ActionName("go \(word)").text == "Go \(capital)")
    }

    /// The button title reads as one title: "Undo the Address", "Redo a Note".
    @Test func aNameStartingWithAnArticleReadsRightInItsTitle() throws {
        let stack = UndoStack()
        stack.registerUndo { _ in }
        try stack.setActionName("the address")
        #expect(stack.undoMenuItemTitle == "Undo the Address")
        try stack.setActionName("an attachment")
        #expect(stack.undoMenuItemTitle == "Undo an Attachment")
    }

    @Test func minorWordsAreArticlesConjunctionsAndShortPrepositions() {
        for word in ActionName.minorWords {
            #expect(word.count <= 4, "\(word) is longer than four letters")
        }
        for word in ["a", "an", "the", "and", "but", "or", "nor", "so", "yet", "of", "with", "from", "amid", "atop"] {
            #expect(ActionName.minorWords.contains(word))
        }
        for word in ["name", "about", "under", "between", "it", "is"] {
            #expect(!ActionName.minorWords.contains(word))
        }
    }

    @Test func nameOfExactlyTheLimitIsAccepted() throws {
        let raw = "replace all occurrences." // 23 characters after removing the period
        #expect(try ActionName(raw).text.count == 23)
        let limit = try ActionName("replace every occurrence")  // 24
        #expect(limit.text == "Replace Every Occurrence")
        #expect(limit.text.count == ActionName.maximumLength)
    }

    @Test func longerNameIsRejectedNamingItsLength() {
        #expect(throws: ActionNameError.tooLong(name: "Replace Every Occurrences", length: 25, limit: 24)) {
            try ActionName("replace every occurrences")
        }
        let error = ActionNameError.tooLong(name: "Replace Every Occurrences", length: 25, limit: 24)
        #expect(error.description.contains("25 characters"))
    }

    /// Wide characters take two columns, as on a screen: 12 ideographs, kana or Hangul
    /// syllables fill the 24 columns that 24 Latin letters do (24 ideographs, twice as wide
    /// as "Replace Every Occurrence", were accepted); an emoji takes two, a flag two, accented
    /// and Cyrillic letters one each. The error names the width and the characters.
    @Test func wideCharactersTakeTwoColumns() throws {
        #expect(ActionName.width(of: "删除联系人") == 10)
        #expect(ActionName.width(of: "ｶﾅ") == 2)          // halfwidth katakana: narrow
        #expect(ActionName.width(of: "Ｄｅｌｅｔｅ") == 12)  // fullwidth Latin: wide
        #expect(ActionName.width(of: "Rename 📁") == 9)
        #expect(ActionName.width(of: "Flag 🇫🇷") == 7)
        #expect(ActionName.width(of: "Удалить Имя") == 11)
        #expect(ActionName.width(of: "Éditer ❤️") == 9)       // heart + emoji variation selector
        #expect(ActionName.width(of: "연락처 삭제") == 11)
        let twelve = String(repeating: "削", count: 12)
        #expect(try ActionName(twelve, titleCase: false).text == twelve)
        let thirteen = String(repeating: "削", count: 13)
        #expect(throws: ActionNameError.tooLong(name: thirteen, length: 26, limit: 24)) {
            try ActionName(thirteen, titleCase: false)
        }
        let error = ActionNameError.tooLong(name: thirteen, length: 26, limit: 24)
        #expect(error.description.contains("26 columns wide (13 characters"), "\(error)")
        #expect(throws: ActionNameError.self) { try ActionName(String(repeating: "あ", count: 24), titleCase: false) }
    }

    @Test(arguments: ["", "   ", "...", " !? ", "— .", "\t\n", "\u{200B}", "\u{0}", "\u{202E}\u{2066} .", "\u{FEFF}\u{1B}"])
    func emptyNameIsRejected(raw: String) {
        #expect(throws: ActionNameError.empty(raw: raw)) { try ActionName(raw) }
    }

    /// Control characters and invisible formatting go (until stop 50 a zero-width space made the
    /// title "Undo " and a right-to-left override turned the rest of the button around); the
    /// joiners inside an emoji sequence stay, so the family is one character.
    @Test func invisibleCharactersAreRemovedAndJoinersKept() throws {
        #expect(try ActionName("\u{202E}delete\u{202C} name\u{200B}").text == "Delete Name")
        #expect(try ActionName("move\u{0}\u{7}  \u{2067}file\u{2069}").text == "Move File")
        let family = try ActionName("add 👨\u{200D}👩\u{200D}👧")
        #expect(family.text == "Add 👨\u{200D}👩\u{200D}👧")
        #expect(family.text.count == 5)
        #expect(try ActionName("\u{200C}x", titleCase: false).text == "\u{200C}x")
    }

    /// Soft hyphens and invisible operators go too, and the blanks Unicode files as letters or
    /// symbols (a Hangul filler, the blank braille pattern) count as spaces: alone, each made a
    /// name that showed as nothing, "Undo " (found by an audit, stop 51).
    @Test func blanksThatAreNoWhitespaceAreSpaces() throws {
        for blank in ["\u{3164}", "\u{2800}", "\u{115F}", "\u{FFA0}", "\u{00AD}", "\u{2062}"] {
            #expect(throws: ActionNameError.empty(raw: blank)) { try ActionName(blank) }
        }
        #expect(try ActionName("delete\u{3164}name").text == "Delete Name")
        #expect(try ActionName("re\u{00AD}name\u{2800}file").text == "Rename File")
        // A subdivision flag (tag characters) stays whole.
        let scotland = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"
        #expect(try ActionName("fly \(scotland)").text == "Fly \(scotland)")
    }

    /// A Spanish opening mark stays when its closing mark is still in the name (only the last
    /// one went with the trailing punctuation).
    @Test func anOpeningMarkWhoseClosingMarkStaysIsKept() throws {
        #expect(try ActionName("¡Hola! mundo!", titleCase: false).text == "¡Hola! mundo")
    }
}
