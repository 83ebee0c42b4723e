/// A time written as a date and time or as a clock time in a CSV time column, as phone apps
/// export it (`CSVImportOptions` lists the forms read).
///
/// Forms, each with an optional fraction of a second after `.` or `,` (any number of digits):
/// - **date and time**: `2018-10-03 17:23:55.4640` (Physics Toolbox on iOS), ISO 8601
///   `2024-01-31T13:05:10.25Z` or `…+01:00` (`Z`, `±hh`, `±hhmm`, `±hh:mm`), `2024/01/31 13:05:10`,
///   and `31-Jan-2024 13:05:10.250` (MATLAB's `datetime`; English month abbreviations);
/// - **time of day**: `13:05:10.25`, and `13:05:10:250` (Physics Toolbox on Android: a fourth
///   group of three digits is milliseconds);
/// - **minutes and seconds**: `05:10.25` (the fraction is required, so `13:05` is not read as a time).
///
/// Hours are 0…23, minutes 0…59, seconds 0…60 (a leap second); dates from year 1 to 9999.
struct WrittenTime: Equatable {
    enum Form: Equatable {
        case dateAndTime, timeOfDay, minutesAndSeconds

        /// After this many seconds the form's clock starts again (it has no date): a day, an hour.
        var period: Double? {
            switch self {
            case .dateAndTime: nil
            case .timeOfDay: 86_400
            case .minutesAndSeconds: 3_600
            }
        }

        /// How messages name values of the form.
        var pluralName: String {
            switch self {
            case .dateAndTime: "dates and times"
            case .timeOfDay: "times of day"
            case .minutesAndSeconds: "minutes and seconds"
            }
        }

        /// How messages name the form.
        var name: String {
            switch self {
            case .dateAndTime: "a date and time"
            case .timeOfDay: "a time of day"
            case .minutesAndSeconds: "minutes and seconds"
            }
        }
    }

    var form: Form
    /// Days since 1970-01-01 (a date and time only; 0 for the other forms).
    var day = 0
    /// Seconds since the day's midnight (minutes and seconds: since the hour), fraction included.
    var seconds = 0.0
    /// The offset from UTC written after the time, s (`Z`: 0); nil when none is written.
    var utcOffset: Int?

    /// Why a text is not read as a written time.
    enum Failure: Error, Equatable {
        /// The text has none of the forms.
        case notATime
        /// The text has a form, but a part of it is out of range (the reason says which).
        case invalid(String)
    }

    /// Parses all of `text` (no spaces around it).
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Result<WrittenTime, Failure> {
        var scanner = Scanner(bytes: text)
        do throws(Failure) {
            let time = try scanner.writtenTime()
            return .success(time)
        } catch {
            return .failure(error)
        }
    }

    /// Days from 1970-01-01 to the given date of the proleptic Gregorian calendar.
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        // Count years from March, so that the leap day ends a year: then the days before a
        // month follow one formula, (153 m + 2) / 5 with m = 0 for March.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * m + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                             "September", "October", "November", "December"]

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        var atEnd: Bool { i == bytes.count }
        var current: UInt8? { i < bytes.count ? bytes[i] : nil }

        mutating func take(_ byte: UInt8) -> Bool {
            guard current == byte else { return false }
            i += 1
            return true
        }

        /// Up to `maximum` decimal digits (at least `minimum`), as a number and their count.
        mutating func digits(minimum: Int = 1, maximum: Int) throws(Failure) -> (value: Int, count: Int) {
            var value = 0
            var count = 0
            while count < maximum, let b = current, b &- UInt8(ascii: "0") < 10 {
                value = value * 10 + Int(b &- UInt8(ascii: "0"))
                count += 1
                i += 1
            }
            guard count >= minimum else { throw .notATime }
            return (value, count)
        }

        /// The digits after a decimal point, as a fraction of 1 (digits past the 15th are read
        /// but do not count: they are below a `Double`'s resolution of a time of day).
        mutating func fraction() throws(Failure) -> Double {
            var value = 0.0
            var scale = 1.0
            var count = 0
            while let b = current, b &- UInt8(ascii: "0") < 10 {
                if count < 15 {
                    scale *= 10
                    value = value * 10 + Double(b &- UInt8(ascii: "0"))
                }
                count += 1
                i += 1
            }
            guard count > 0 else { throw .notATime }
            return value / scale
        }

        mutating func writtenTime() throws(Failure) -> WrittenTime {
            let date = try self.date()
            if date != nil {
                guard take(UInt8(ascii: "T")) || take(UInt8(ascii: "t")) || take(0x20) else { throw .notATime }
                while take(0x20) {}
            }
            // Hours (or minutes), then minutes (or seconds).
            let first = try digits(maximum: 2)
            guard take(UInt8(ascii: ":")) else { throw .notATime }
            let second = try digits(minimum: 2, maximum: 2).value
            var time: WrittenTime
            if take(UInt8(ascii: ":")) {
                let third = try digits(minimum: 2, maximum: 2).value
                var seconds = Double(third)
                if take(UInt8(ascii: ".")) || take(UInt8(ascii: ",")) {
                    seconds += try fraction()
                } else if take(UInt8(ascii: ":")) {
                    let milliseconds = try digits(minimum: 3, maximum: 3).value
                    seconds += Double(milliseconds) / 1000
                }
                guard first.value <= 23 else { throw .invalid("hour \(first.value) (hours are 0 to 23)") }
                guard second <= 59 else { throw .invalid("minute \(second) (minutes are 0 to 59)") }
                guard third <= 60 else { throw .invalid("second \(third) (seconds are 0 to 59, or 60 for a leap second)") }
                time = WrittenTime(
                    form: date == nil ? .timeOfDay : .dateAndTime, day: date ?? 0,
                    seconds: Double(first.value * 3600 + second * 60) + seconds)
            } else {
                // Minutes and seconds: only with a fraction, and without a date.
                guard date == nil, take(UInt8(ascii: ".")) || take(UInt8(ascii: ",")) else { throw .notATime }
                let fraction = try fraction()
                guard first.value <= 59 else { throw .invalid("minute \(first.value) (minutes are 0 to 59)") }
                guard second <= 60 else { throw .invalid("second \(second) (seconds are 0 to 59, or 60 for a leap second)") }
                time = WrittenTime(form: .minutesAndSeconds, seconds: Double(first.value * 60 + second) + fraction)
            }
            if date != nil {
                time.utcOffset = try zone()
            }
            guard atEnd else { throw .notATime }
            return time
        }

        /// `YYYY-MM-DD`, `YYYY/MM/DD` or `DD-Mon-YYYY` as days since 1970-01-01; nil (nothing
        /// taken) when the text does not start with a date.
        mutating func date() throws(Failure) -> Int? {
            let start = i
            let lead = try digits(maximum: 4)
            let year: Int, month: Int, day: Int
            if lead.count == 4 {
                guard let dash = current, dash == UInt8(ascii: "-") || dash == UInt8(ascii: "/") else {
                    i = start
                    return nil
                }
                i += 1
                year = lead.value
                month = try digits(maximum: 2).value
                guard take(dash) else { throw .notATime }
                day = try digits(maximum: 2).value
            } else if lead.count <= 2, take(UInt8(ascii: "-")) {
                day = lead.value
                guard i + 3 <= bytes.count else { throw .notATime }
                let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[i ..< i + 3]), as: UTF8.self).lowercased()
                guard let index = WrittenTime.monthNames.firstIndex(where: { $0.prefix(3).lowercased() == name }) else {
                    throw .notATime
                }
                i += 3
                month = index + 1
                guard take(UInt8(ascii: "-")) else { throw .notATime }
                year = try digits(minimum: 4, maximum: 4).value
            } else {
                i = start
                return nil
            }
            guard year >= 1 else { throw .invalid("year 0 (years are 1 to 9999)") }
            guard (1 ... 12).contains(month) else { throw .invalid("month \(month) (months are 1 to 12)") }
            let days = WrittenTime.daysIn(month: month, year: year)
            guard (1 ... days).contains(day) else {
                throw .invalid("day \(day) (\(WrittenTime.monthNames[month - 1]) \(year) has \(days) days)")
            }
            return WrittenTime.daysSinceEpoch(year: year, month: month, day: day)
        }

        /// `Z`, `±hh`, `±hhmm` or `±hh:mm` as seconds east of UTC; nil when none is written.
        mutating func zone() throws(Failure) -> Int? {
            if take(UInt8(ascii: "Z")) || take(UInt8(ascii: "z")) { return 0 }
            guard let sign = current, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
            i += 1
            let hours = try digits(minimum: 2, maximum: 2).value
            var minutes = 0
            if take(UInt8(ascii: ":")) {
                minutes = try digits(minimum: 2, maximum: 2).value
            } else if current != nil {
                minutes = try digits(minimum: 2, maximum: 2).value
            }
            guard hours <= 23, minutes <= 59 else {
                throw .invalid("UTC offset \(hours):\(minutes < 10 ? "0" : "")\(minutes) (at most 23:59)")
            }
            let offset = hours * 3600 + minutes * 60
            return sign == UInt8(ascii: "-") ? -offset : offset
        }
    }
}
