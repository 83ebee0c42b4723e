/// Fast, exact parsing of plain decimal numbers from bytes.
///
/// Grammar: `[+|-] (digits [point digits*] | point digits) [(e|E) [+|-] digits]`, where `point`
/// is `.` or (by option) `,`. No spaces, no `nan`, `inf`, hexadecimal or digit separators.
///
/// The result is correctly rounded: with at most 19 significant digits whose integer fits in
/// 2^53 and a decimal exponent within ±22, both the integer and the power of ten are exact
/// `Double`s, so one multiplication or division rounds once (the classic Clinger fast path);
/// anything else goes to the standard library's correctly rounded `Double(Substring)`.
enum DecimalParser {
    /// 10^k for 0 ≤ k ≤ 22, all exact `Double`s (a switch over constants becomes a table).
    @inline(always)
    static func powerOfTen(_ k: Int) -> Double {
        switch k {
        case 0: 1e0
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22
        }
    }

    /// 10^k for 0 ≤ k ≤ 7 as a table (statically initialised; `powerOfTen` becomes a jump).
    static let smallPowersOfTen: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7]

    /// 10^k as an integer for 0 ≤ k ≤ 8.
    @inline(always)
    static func integerPowerOfTen(_ k: Int) -> UInt64 {
        switch k {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1000
        case 4: 10000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        default: 100_000_000
        }
    }

    /// Reads the run of up to 8 ASCII digits at `q` (not beyond `end`) with one 8-byte load.
    ///
    /// The run ends at the first non-digit (`digitCount`); its digits are then moved to the high
    /// bytes (the low ones become leading zeros) and converted by `eightDigits`.
    ///
    /// - Precondition: 8 bytes from `q` are readable.
    @inline(always)
    static func digitRun(_ q: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> (count: Int, value: UInt64) {
        let values = digitValues(UInt64(littleEndian: UnsafeRawPointer(q).loadUnaligned(as: UInt64.self)))
        let run = digitCount(values)
        let left = end - q
        let count = run < left ? run : left
        if count == 0 { return (0, 0) }
        // A masking shift: count is 1...8 here, so the shift is 0...56 and needs no range check.
        return (count, eightDigits(values &<< UInt64(truncatingIfNeeded: 64 &- 8 &* count)))
    }

    /// Bytes from a number's start that `parsePlain` may load: `readable - start` must be at least
    /// this (`CSVLineSource.slackBytes` is more: see there).
    static let plainReadBytes = 24

    /// The 64-bit masks and multipliers of the word-at-a-time digit code.
    ///
    /// Functions take them as a value whose default is constant-folded. A loop that reads them
    /// from memory once (`CSVRecordParser.fillBatch`) lets the compiler use them as register or
    /// memory operands, instead of re-creating each 64-bit constant with an instruction of its
    /// own at every use, which it otherwise does in a loop that needs many registers.
    struct WordConstants {
        var zeros: UInt64 = 0x3030_3030_3030_3030
        var sixes: UInt64 = 0x0606_0606_0606_0606
        var highNibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
        var lowBytes: UInt64 = 0x00FF_00FF_00FF_00FF
        var lowHalves: UInt64 = 0x0000_FFFF_0000_FFFF
        var pairOfFours: UInt64 = 42_949_672_960_001
    }

    /// `word` with ASCII digits turned into their values 0…9 (other bytes become 10…255).
    @inline(always)
    static func digitValues(_ word: UInt64, _ k: WordConstants = WordConstants()) -> UInt64 {
        word ^ k.zeros
    }

    /// How many bytes of `values` (from `digitValues`) are digits before the first that is not: 0…8.
    ///
    /// A byte is a digit when it is below 10, i.e. when neither it nor it plus 6 reaches 16. The
    /// addition may carry out of a byte of 0xFA or more into the next one, but only after a
    /// non-digit, so the first non-digit is found correctly.
    @inline(always)
    static func digitCount(_ values: UInt64, _ k: WordConstants = WordConstants()) -> Int {
        let notDigit = (values | (values &+ k.sixes)) & k.highNibbles
        return notDigit.trailingZeroBitCount &>> 3
    }

    /// The value of 8 digit bytes (`0`…`9` as 0…9, the first byte most significant) in one word:
    /// combined pairwise, then in fours, then in eights (three multiplications).
    @inline(always)
    static func eightDigits(_ digits: UInt64, _ k: WordConstants = WordConstants()) -> UInt64 {
        var v = (digits &* 2561) &>> 8 & k.lowBytes
        v = (v &* 6_553_601) &>> 16 & k.lowHalves
        return (v &* k.pairOfFours) &>> 32
    }

    /// Parses the common shape of recorded numbers, `[+|-] d{1,7} point d{1,8}`, with two 8-byte
    /// loads and no loop over the digits.
    ///
    /// With `i` integer and `f` fraction digits, `i + f ≤ 8` (the usual `-12.34567`): the integer
    /// digits, moved to the high bytes of a word, move down past the fraction's, so one word
    /// holds all digits and converts to the integer `m` they spell; then
    ///
    ///     value = m / 10^f
    ///
    /// Otherwise the integer digits (moved to the high bytes, the low ones becoming leading
    /// zeros) and the fraction digits (left-aligned with the bytes after them cleared, trailing
    /// zeros) convert separately to `integer` and `fraction · 10^(8−f)`; then
    ///
    ///     value = (integer · 10^8 + fraction · 10^(8−f)) / 10^8
    ///
    /// Either way the quotient is the decimal's exact value as a real number, the numerator is
    /// below 10^15 < 2^53 and the power of ten is exact, so the one division rounds correctly
    /// (Clinger's fast path).
    ///
    /// Nothing after the digits is looked at: the caller must accept only a field separator or a
    /// line end at `end`'s position; any other byte there (an exponent, a ninth fraction digit, a
    /// space) means the text is not of this shape and must go through `parse`.
    ///
    /// - Precondition: `readable - start >= plainReadBytes` (loads past `end` happen only below
    ///   `readable`, and their bytes are ignored).
    /// - Parameter bounded: false when the caller tests the end itself (the number then may end
    ///   up to 17 bytes from `start`, at or past `end`).
    /// - Returns: the value, the position just after the last digit (before `end`) and the byte
    ///   there, or nil when the text is not of this shape before `end`.
    @inline(always)
    static func parsePlain(
        _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, point: UInt8,
        constants k: WordConstants = WordConstants(), bounded: Bool = true
    ) -> (value: Double, end: UnsafePointer<UInt8>, next: UInt8)? {
        #if _endian(little)
        let first = start.pointee
        // The sign is skipped and set with arithmetic, not branches: recorded signs are random.
        // `first - '+'` is 0 for `+` and 2 for `-` (and neither for any other byte).
        let signLength = (first &- UInt8(ascii: "+")) & 0xFD == 0 ? 1 : 0
        let q = start + signLength
        let sign = UInt64(first == UInt8(ascii: "-") ? 1 : 0) &<< 63
        let integerDigits = digitValues(UInt64(littleEndian: UnsafeRawPointer(q).loadUnaligned(as: UInt64.self)), k)
        let i = digitCount(integerDigits, k)
        // 1…7 integer digits, then the point.
        guard UInt(bitPattern: i &- 1) < 7, q[i] == point else { return nil }
        let fractionStart = q + i + 1
        let fractionDigits = digitValues(UInt64(littleEndian: UnsafeRawPointer(fractionStart).loadUnaligned(as: UInt64.self)), k)
        let f = digitCount(fractionDigits, k)
        let after = fractionStart + f
        // 1…8 fraction digits, all before `end` (then so is everything before them); unless not
        // `bounded`, when the caller tests where the number ends.
        guard f != 0, !bounded || after < end else { return nil }
        // Masking shifts: i is 1…7 and f 1…8, so the shifts are 8…56 and 0…56. Bytes after the
        // digits are shifted out or masked off.
        let integerHigh = integerDigits &<< UInt64(truncatingIfNeeded: 64 &- 8 &* i)
        if i &+ f <= 8 {
            // All digits fit one word: the integer's move down past the fraction's (f ≤ 7 here),
            // and the value is that integer over 10^f, both exact.
            let digits = integerHigh &>> UInt64(truncatingIfNeeded: 8 &* f)
                | fractionDigits &<< UInt64(truncatingIfNeeded: 64 &- 8 &* f)
            let v = Double(eightDigits(digits, k)) / smallPowersOfTen[f]
            return (Double(bitPattern: v.bitPattern | sign), after, after.pointee)
        }
        let integer = eightDigits(integerHigh, k)
        let fraction = eightDigits(fractionDigits & (UInt64.max &>> UInt64(truncatingIfNeeded: 64 &- 8 &* f)), k)
        let v = Double(integer &* 100_000_000 &+ fraction) / 1e8
        return (Double(bitPattern: v.bitPattern | sign), after, after.pointee)
        #else
        return nil
        #endif
    }

    /// Parses a number starting at `start`, stopping at the first byte that cannot continue it.
    ///
    /// The plain shape (`parsePlain`) is tried first when `readable` allows its loads; everything
    /// else goes to `parseGeneral`.
    ///
    /// - Parameter readable: end of the memory that may be read (≥ `end`); loads past `end`
    ///   happen only below it and their extra bytes are ignored.
    /// - Returns: the value and the position just after the number, or nil when no number starts
    ///   at `start`. The caller checks that the number ends where the field ends. The value is
    ///   ±infinity when the text overflows a `Double` (e.g. `1e999`).
    @inline(always)
    static func parse(
        _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, point: UInt8,
        readable: UnsafePointer<UInt8>
    ) -> (value: Double, end: UnsafePointer<UInt8>)? {
        if readable - start >= plainReadBytes, let plain = parsePlain(start, end, point: point),
           plain.next | 0x20 != UInt8(ascii: "e"), plain.next &- UInt8(ascii: "0") >= 10 {
            return (plain.value, plain.end)
        }
        return parseGeneral(start, end, point: point, readable: readable)
    }

    /// `parse(_:_:point:readable:)` for text that is not plain: at most 7 digits before and 7
    /// after the point read with one 8-byte load each when `readable` allows it; everything else
    /// goes digit by digit.
    @inline(never)
    static func parseGeneral(
        _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, point: UInt8,
        readable: UnsafePointer<UInt8>
    ) -> (value: Double, end: UnsafePointer<UInt8>)? {
        #if _endian(little)
        var (negative, q) = signPrefix(start, end)
        guard readable - q >= 16 else { return parse(start, end, point: point) }
        let integer = digitRun(q, end)
        guard integer.count < 8 else { return parse(start, end, point: point) }
        q += integer.count
        var mantissa = integer.value
        var exponent = 0
        if q < end, q.pointee == point {
            let fraction = digitRun(q + 1, end)
            guard fraction.count < 8 else { return parse(start, end, point: point) }
            if integer.count == 0 && fraction.count == 0 { return nil }
            mantissa = mantissa &* integerPowerOfTen(fraction.count) &+ fraction.value
            exponent = -fraction.count
            q += 1 &+ fraction.count
        } else if integer.count == 0 {
            return nil
        }
        if q < end, q.pointee | 0x20 == UInt8(ascii: "e") { return parse(start, end, point: point) }
        // At most 14 digits: the mantissa is below 2^53 and 10^-exponent is exact.
        var v = Double(mantissa)
        if exponent < 0 { v /= powerOfTen(-exponent) }
        return (negative ? -v : v, q)
        #else
        return parse(start, end, point: point)
        #endif
    }

    /// Parses a number digit by digit (see `parse(_:_:point:readable:)`).
    ///
    /// The common case (at most 19 digits in all, leading zeros included) is read in one pass;
    /// longer digit strings go to `parseLong`.
    @inline(never)
    static func parse(
        _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, point: UInt8
    ) -> (value: Double, end: UnsafePointer<UInt8>)? {
        var (negative, q) = signPrefix(start, end)
        var mantissa: UInt64 = 0
        let integerStart = q
        while q < end {
            let d = q.pointee &- UInt8(ascii: "0")
            if d >= 10 { break }
            mantissa = mantissa &* 10 &+ UInt64(d)
            q += 1
        }
        var digits = q - integerStart
        var exponent = 0
        if q < end, q.pointee == point {
            q += 1
            let fractionStart = q
            while q < end {
                let d = q.pointee &- UInt8(ascii: "0")
                if d >= 10 { break }
                mantissa = mantissa &* 10 &+ UInt64(d)
                q += 1
            }
            exponent = fractionStart - q
            digits &-= exponent
        }
        if digits == 0 { return nil }
        if digits > 19 { return parseLong(start, end, point: point) }
        guard let written = exponentPart(q, end) else { return nil }
        exponent &+= written.value
        q = written.end
        if mantissa < (1 << 53), exponent >= -22, exponent <= 22 {
            var v = Double(mantissa)
            if exponent >= 0 {
                v *= powerOfTen(exponent)
            } else {
                v /= powerOfTen(-exponent)
            }
            return (negative ? -v : v, q)
        }
        if mantissa == 0 { return (negative ? -0.0 : 0.0, q) }
        return (slowParse(start, q, point: point), q)
    }

    /// Reads an exponent, `(e|E) [+|-] digits`, at `q` (not beyond `end`).
    ///
    /// - Returns: the exponent and the position after it; `(0, q)` when no `e` or `E` is at `q`;
    ///   nil when one is but no digit follows. The magnitude stops growing once it reaches 100000
    ///   (any such exponent overflows or underflows a `Double` whatever the digits).
    @inline(always)
    static func exponentPart(
        _ q: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>
    ) -> (value: Int, end: UnsafePointer<UInt8>)? {
        guard q < end, q.pointee | 0x20 == UInt8(ascii: "e") else { return (0, q) }
        var (negative, r) = signPrefix(q + 1, end)
        var e = 0
        let digitsStart = r
        while r < end {
            let d = r.pointee &- UInt8(ascii: "0")
            if d >= 10 { break }
            if e < 100_000 { e = e &* 10 &+ Int(d) }
            r += 1
        }
        if r == digitsStart { return nil }
        return (negative ? -e : e, r)
    }

    /// An optional `+` or `-` at `q` (before `end`): whether it was `-`, and where the digits start.
    @inline(always)
    static func signPrefix(
        _ q: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>
    ) -> (negative: Bool, rest: UnsafePointer<UInt8>) {
        guard q < end else { return (false, q) }
        let c = q.pointee
        if c == UInt8(ascii: "-") { return (true, q + 1) }
        return (false, c == UInt8(ascii: "+") ? q + 1 : q)
    }

    /// Parses `[+|-]digits` that fit an `Int64` (up to 19 digits), or returns nil; the
    /// caller checks that the field ends there.
    @inline(always)
    static func parseInteger(
        _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>
    ) -> (value: Int64, end: UnsafePointer<UInt8>)? {
        var (negative, q) = signPrefix(start, end)
        let digitsStart = q
        var value: UInt64 = 0
        while q < end {
            let d = q.pointee &- UInt8(ascii: "0")
            if d >= 10 { break }
            value = value &* 10 &+ UInt64(d)
            q += 1
        }
        let digits = q - digitsStart
        // 19 digits stay below 2^64; the value must also fit an Int64.
        if digits == 0 || digits > 19 || value > UInt64(Int64.max) { return nil }
        return (negative ? -Int64(value) : Int64(value), q)
    }

    /// Like `parse`, for numbers with more than 19 digits: leading zeros are skipped and digits
    /// beyond the 19th only checked, then the standard library converts the text.
    @inline(never)
    static func parseLong(
        _ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, point: UInt8
    ) -> (value: Double, end: UnsafePointer<UInt8>)? {
        var (negative, q) = signPrefix(start, end)
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        var sawDigit = false
        var dropped = false
        // Integer part.
        while q < end {
            let d = q.pointee &- UInt8(ascii: "0")
            if d >= 10 { break }
            sawDigit = true
            if significant < 19 {
                if mantissa != 0 || d != 0 {
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    significant &+= 1
                }
            } else {
                exponent &+= 1
                dropped = true
            }
            q += 1
        }
        // Fraction.
        if q < end, q.pointee == point {
            q += 1
            while q < end {
                let d = q.pointee &- UInt8(ascii: "0")
                if d >= 10 { break }
                sawDigit = true
                if significant < 19 {
                    if mantissa != 0 || d != 0 {
                        mantissa = mantissa &* 10 &+ UInt64(d)
                        significant &+= 1
                    }
                    exponent &-= 1
                } else {
                    dropped = true
                }
                q += 1
            }
        }
        if !sawDigit { return nil }
        guard let written = exponentPart(q, end) else { return nil }
        exponent &+= written.value
        q = written.end
        if !dropped, mantissa < (1 << 53), exponent >= -22, exponent <= 22 {
            var v = Double(mantissa)
            if exponent >= 0 {
                v *= powerOfTen(exponent)
            } else {
                v /= powerOfTen(-exponent)
            }
            return (negative ? -v : v, q)
        }
        if mantissa == 0 && !dropped {
            return (negative ? -0.0 : 0.0, q)
        }
        return (slowParse(start, q, point: point), q)
    }

    /// The correctly rounded standard-library conversion, for text already checked against the grammar.
    @inline(never)
    static func slowParse(_ start: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, point: UInt8) -> Double {
        var bytes = Array(UnsafeBufferPointer(start: start, count: end - start))
        if point != UInt8(ascii: ".") {
            for i in bytes.indices where bytes[i] == point { bytes[i] = UInt8(ascii: ".") }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        // The grammar was checked above, so this only fails on overflow spellings it cannot hit.
        return Double(Substring(text)) ?? .nan
    }
}
