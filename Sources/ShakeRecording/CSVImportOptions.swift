/// How to read a CSV recording: separator, which columns hold time, acceleration and label, and
/// their units.
///
/// The defaults (`.canonical`) read the project's canonical recordings (`time_s,x,y,z[,shake]`,
/// seconds and m/s²) and detect most exports of phone sensor apps on their own:
///
/// - **Separator**: detected from the header line (the most frequent of `,` `;` tab outside quotes,
///   else `|` when the line holds none of them).
/// - **Columns**: header names are compared after trimming spaces and quotes, dropping a trailing unit
///   in parentheses or brackets, lower-casing, and turning runs of other characters into `_`:
///   `"Acceleration x (m/s^2)"` becomes `acceleration_x` with unit `m/s^2`. Candidates, in order of
///   preference, are listed in `timeColumnNames`, `xColumnNames`, … . Columns that match no role are
///   ignored; so is column order (Sensor Logger writes `z,y,x`).
/// - **Units**: a unit in the header (`(s)`, `[ms]`, `(g)`, `(m/s^2)`, a name suffix `time_ms`,
///   `timestamp_ns`, g-force columns `gFx`, or for acceleration a `# units:` line before the
///   header, as `shake synth` and `shake record` write) is used, and an option that names another unit for
///   that column is an error (one of them is wrong); otherwise the option's; otherwise seconds and
///   m/s².
///   An unknown unit in a header is an error, never a guess. A time column whose unit was not
///   stated anywhere and whose first 16 intervals (all of them, in a shorter file) are each 0.25 s
///   or more, a rate under 4 Hz, is an error asking for `timeUnit`: milliseconds read as seconds
///   would be silently wrong, every interval a gap. One shorter interval settles it.
///
/// Export layouts covered by tests (with made-up rows, not files from the apps themselves):
/// - phyphox style: `"Time (s)","Acceleration x (m/s^2)",…,"Absolute acceleration (m/s^2)"`; no flag.
/// - Sensor Logger style: `time,seconds_elapsed,z,y,x`, where `time` is in nanoseconds since the
///   epoch: `seconds_elapsed` is preferred, and column order does not matter; no flag. Use the
///   export that includes gravity, `TotalAcceleration.csv` (its `Accelerometer.csv` has gravity
///   taken out: `RecordingReader.earlyMagnitude` tells, by the values or by the header and file
///   name, `EarlyMagnitude.gravityFreeExport`; on iOS, which writes no
///   `TotalAcceleration.csv`, add `Gravity.csv` to it row by row, as `shake convert --add-gravity`
///   does), and pass `accelerationUnit` if its values are not in m/s². Its `Gyroscope.csv`,
///   `Magnetometer.csv` and `Gravity.csv` (and the uncalibrated ones), which share the
///   accelerometer's header, are an error naming what they hold (`.missingColumn`,
///   `optionHint` `.axisColumns`: choosing the columns reads them as they are).
///   With nanosecond stamps only: `timeUnit: .nanoseconds, rebasesTime: true` (integer stamps are
///   rebased exactly).
/// - Physics Toolbox g-force style: `time,gFx,gFy,gFz,TgF`, `gF…` columns read as g; no flag.
///   With `;` separators and decimal commas: `decimalSeparator: .comma` (a leading `−`, U+2212,
///   as some locales write the minus sign, is read as `-`). Its multi-record export,
///   `time,gFx,gFy,gFz,ax,ay,az,wx,…`, reads `gF…`, not the linear accelerometer's `ax…`
///   (gravity taken out; zeros when that sensor is off); no flag.
/// - AndroSensor style: `;`-separated, `ACCELEROMETER X (m/s²)`, …, `Time since start in ms `
///   (milliseconds, from the name), beside `LINEAR ACCELERATION X`, `GRAVITY X` and a date column,
///   which are ignored; no flag.
/// - SensorLog (iOS) style: `accelerometerTimestamp_sinceReboot(s)`,
///   `accelerometerAccelerationX(G)`, … (g, from the header), beside `loggingTime(txt)` and the
///   `motion…` columns (user acceleration without gravity, ignored); no flag.
/// - Science Journal style: `relative_time,AccX,AccY,AccZ` (milliseconds, which the header does
///   not say): `timeUnit: .milliseconds` (without it, the first interval of tens of "seconds" is
///   an error asking for the unit).
/// - edge-ml style: `time,sensor_AccelerometerX[],…,sensor_GyroscopeX[],…,label_<set>_<name>`,
///   epoch milliseconds, each sensor's reading on its own row with the other sensors' columns
///   empty: `timeUnit: .milliseconds, rebasesTime: true, skipsRowsWithoutAcceleration: true` (the
///   `x` marks of its label columns are not read: label with `shake convert --shakes`).
/// - Headerless files: `hasHeader: false` and columns by `.index`.
/// - Physics Toolbox on iOS: `time,gFx,gFy,gFz,gFTotal` with times written as dates
///   (`2018-10-03 17:23:55.4640`), and on Android as clock times with milliseconds after a fourth
///   colon (`13:05:10:123`); MATLAB's `Timestamp` (`01-Jan-2024 10:00:00.000`); a `DateTime`
///   column of dates (`DateTime;Magnitude;X;Y;Z`, `2015-01-01 12:00:00.00`); no flag.
/// - phyphox's other CSV settings: `"Time (s)";"Acceleration x (m/s^2)";…` with decimal commas
///   (`1,002000000E-2`), `;` or tab separated: `decimalSeparator: .comma`.
/// - micro:bit data logger style: `Time (seconds),x,y,z` in mg: `accelerationUnit: .milliG`;
///   Wiimote style `timestamp_ms,accX,accY,accZ` in g: `accelerationUnit: .g` (without the unit,
///   |a| of about 1000 or 1 at rest over the first 64 samples is an error asking for it; a file
///   of fewer samples is read as m/s²).
///
/// **Times written as dates or clock times** are recognised from the first row's time field
/// (`WrittenTime` lists the forms: ISO 8601 dates and times with `T` or a space and an optional
/// `Z` or UTC offset, `YYYY/MM/DD`, `DD-Mon-YYYY`, `HH:MM:SS[.f]`, `HH:MM:SS:mmm`, `MM:SS.f`) and
/// read as seconds since the first row's midnight (minutes and seconds: since its hour), offsets
/// taken into account; every later row must be written the same way. A clock without a date
/// that steps back by more than half a day (half an hour) has passed midnight (the hour). Such a
/// column takes no `timeUnit` (an error says so); `rebasesTime` still shifts it to 0. Forms not
/// read (`01/02/2024`, `13:05`, `10:00 PM`) are an error at the field (`optionHint` `.timeColumn`)
/// that lists the forms read and asks for a column of numbers otherwise.
public struct CSVImportOptions: Sendable, Hashable {
    /// The field separator.
    public enum Separator: String, Sendable, Hashable, CaseIterable {
        /// Detect from the header line: the most frequent of `,` `;` tab outside quotes, else `|`
        /// when the line holds none of them (so a `|` inside a name, `|a|`, never outvotes them).
        case auto
        case comma = ","
        case semicolon = ";"
        case tab = "\t"
        /// `|`, as some loggers and database dumps write.
        case pipe = "|"

        /// Parses a command-line spelling: `auto`, `,`/`comma`, `;`/`semicolon`, `\t`/`tab`, `|`/`pipe`.
        public init?(argument: String) {
            switch argument.lowercased() {
            case "auto": self = .auto
            case ",", "comma": self = .comma
            case ";", "semicolon": self = .semicolon
            case "\t", "\\t", "tab": self = .tab
            case "|", "pipe": self = .pipe
            default: return nil
            }
        }

        var byte: UInt8? {
            switch self {
            case .auto: nil
            case .comma: UInt8(ascii: ",")
            case .semicolon: UInt8(ascii: ";")
            case .tab: UInt8(ascii: "\t")
            case .pipe: UInt8(ascii: "|")
            }
        }
    }

    /// The character between the integer and fractional digits of a number.
    public enum DecimalSeparator: String, Sendable, Hashable, CaseIterable {
        case point = "."
        /// `1,5`: only with a `;`, tab or `|` field separator.
        case comma = ","

        var byte: UInt8 { self == .point ? UInt8(ascii: ".") : UInt8(ascii: ",") }
    }

    /// A column chosen by header name or by position.
    public enum Column: Sendable, Hashable, CustomStringConvertible {
        /// A header name, compared like the automatic names (case, quotes, spaces and a trailing
        /// unit in parentheses do not matter).
        case named(String)
        /// 1-based position of the field in each row.
        case index(Int)

        /// Parses a command-line spelling: a positive integer is a 1-based index, anything else a name.
        public init(argument: String) {
            if let i = Int(argument), i > 0 { self = .index(i) } else { self = .named(argument) }
        }

        public var description: String {
            switch self {
            case .named(let name): "'\(name)'"
            case .index(let i): "#\(i)"
            }
        }
    }

    /// Unit of the acceleration columns; values are converted to m/s².
    public enum AccelerationUnit: String, Sendable, Hashable, CaseIterable {
        /// Metres per second squared (no conversion).
        case metersPerSecondSquared = "m/s^2"
        /// Standard gravity: 1 g = 9.80665 m/s².
        case g
        /// Thousandths of standard gravity: 1 mg = 0.00980665 m/s².
        case milliG = "mg"

        /// Parses `m/s^2` (also `m/s2`, `m/s²`, `ms^-2`, `mps2`), `g`, `mg`, case-insensitively.
        public init?(argument: String) {
            let s = argument.trimmingSpaces().lowercased()
            switch s {
            case "m/s^2", "m/s2", "m/s²", "ms^-2", "ms-2", "ms⁻²", "m s^-2", "m s-2", "m s⁻²", "m*s^-2", "m.s^-2", "m.s-2",
                 "m·s^-2", "m·s-2", "m·s⁻²", "mps2", "m/s/s", "m/sec^2", "m/sec2", "m/sec²":
                self = .metersPerSecondSquared
            case "g", "gf", "g-force", "gforce": self = .g
            case "mg": self = .milliG
            default: return nil
            }
        }

        /// Multiply a value in this unit by this factor to get m/s².
        public var metersPerSecondSquared: Double {
            switch self {
            case .metersPerSecondSquared: 1
            case .g: 9.80665
            case .milliG: 0.00980665
            }
        }
    }

    /// Unit of the time column; values are converted to seconds.
    public enum TimeUnit: String, Sendable, Hashable, CaseIterable {
        case seconds = "s"
        case milliseconds = "ms"
        case microseconds = "us"
        case nanoseconds = "ns"

        /// Parses `s`, `ms`, `us` (also `µs`), `ns` and long spellings like `seconds`, case-insensitively.
        public init?(argument: String) {
            switch argument.trimmingSpaces().lowercased() {
            case "s", "sec", "secs", "second", "seconds": self = .seconds
            case "ms", "msec", "millisecond", "milliseconds": self = .milliseconds
            case "us", "µs", "μs", "usec", "microsecond", "microseconds": self = .microseconds
            case "ns", "nsec", "nanosecond", "nanoseconds": self = .nanoseconds
            default: return nil
            }
        }

        /// Units in a second: 1, 1e3, 1e6, 1e9. Dividing by it gives the nearest Double to the
        /// time in seconds (multiplying by `seconds`, an inexact 1e-3, need not).
        var unitsPerSecond: Double {
            switch self {
            case .seconds: 1
            case .milliseconds: 1e3
            case .microseconds: 1e6
            case .nanoseconds: 1e9
            }
        }

        /// Multiply a value in this unit by this factor to get seconds.
        public var seconds: Double {
            switch self {
            case .seconds: 1
            case .milliseconds: 1e-3
            case .microseconds: 1e-6
            case .nanoseconds: 1e-9
            }
        }
    }

    /// Field separator. Default: `.auto`.
    public var separator: Separator
    /// Decimal separator inside numbers. Default: `.point`.
    public var decimalSeparator: DecimalSeparator
    /// Time column; `nil` picks the first header name found in `timeColumnNames`.
    public var time: Column?
    /// x acceleration column; `nil` picks from `xColumnNames`.
    public var x: Column?
    /// y acceleration column; `nil` picks from `yColumnNames`.
    public var y: Column?
    /// z acceleration column; `nil` picks from `zColumnNames`.
    public var z: Column?
    /// Label column (values 0 or 1); `nil` uses a column named as in `labelColumnNames` if there is
    /// one, else the recording is unlabelled.
    public var label: Column?
    /// When true, any label column is ignored and `LabeledSample.isShake` is nil. Default false.
    public var ignoresLabels: Bool
    /// Acceleration unit; `nil` uses the unit in the header, else m/s². Another unit than one the
    /// header states is an error; a header unit in a spelling not known here (`m/s²` exported in
    /// Windows-1252) is taken to be this one (without it, an error that names this setting).
    public var accelerationUnit: AccelerationUnit?
    /// Time unit; `nil` uses the unit in the header, else seconds. As `accelerationUnit`: another
    /// than one the header states is an error, a header unit not known here is taken to be this.
    public var timeUnit: TimeUnit?
    /// When true, times are shifted so the first sample is at 0 s (for epoch or boot-time stamps).
    /// Default false: times are kept as written.
    public var rebasesTime: Bool
    /// Whether the first non-comment line is a header. Without a header, columns default to
    /// time, x, y, z = fields 1, 2, 3, 4 (override with `.index`). Default true.
    public var hasHeader: Bool
    /// Largest acceleration accepted on any axis, m/s², after unit conversion: a larger value is
    /// an error naming it (a sensor reading 200 g is a corrupt file or a wrong unit). Default 2000.
    /// Above 0 (`infinity` for no limit); NaN or 0 or less is an `.invalidArgument` error when the
    /// reader starts.
    public var maximumAcceleration: Double
    /// Longest line accepted, bytes. The reader never buffers more than about this plus 256 KiB.
    /// Default 1 MiB; a value under 64 is taken as 64, one over 1 GiB
    /// (`largestMaximumLineBytes`) is an `.invalidArgument` error when a file is opened.
    public var maximumLineBytes: Int
    /// The largest `maximumLineBytes`: 1 GiB.
    public static let largestMaximumLineBytes = 1 << 30
    /// When true, a row whose x, y and z fields are all empty is skipped: an export that merges
    /// several sensors into one table (edge-ml) gives each sensor's reading its own row and
    /// leaves the others' columns empty. A row with only one or two of them empty is still an
    /// error. Default false: such a row is an error that names this setting.
    public var skipsRowsWithoutAcceleration: Bool

    public init(
        separator: Separator = .auto,
        decimalSeparator: DecimalSeparator = .point,
        time: Column? = nil, x: Column? = nil, y: Column? = nil, z: Column? = nil,
        label: Column? = nil,
        ignoresLabels: Bool = false,
        accelerationUnit: AccelerationUnit? = nil,
        timeUnit: TimeUnit? = nil,
        rebasesTime: Bool = false,
        hasHeader: Bool = true,
        maximumAcceleration: Double = 2000,
        maximumLineBytes: Int = 1 << 20,
        skipsRowsWithoutAcceleration: Bool = false
    ) {
        self.separator = separator
        self.decimalSeparator = decimalSeparator
        self.time = time
        self.x = x
        self.y = y
        self.z = z
        self.label = label
        self.ignoresLabels = ignoresLabels
        self.accelerationUnit = accelerationUnit
        self.timeUnit = timeUnit
        self.rebasesTime = rebasesTime
        self.hasHeader = hasHeader
        self.maximumAcceleration = maximumAcceleration
        self.maximumLineBytes = maximumLineBytes
        self.skipsRowsWithoutAcceleration = skipsRowsWithoutAcceleration
    }

    /// Reads canonical recordings and detects common foreign exports (see the type's documentation).
    public static let canonical = CSVImportOptions()

    /// Largest time magnitude read or written, s, after unit conversion (and rebasing): 10¹³ s,
    /// about 317,000 years. A larger time is an error at its field (`RecordingError.Kind.outOfRange`),
    /// and `RecordingWriter` refuses one.
    ///
    /// Seconds since 1970 (about 1.7·10⁹) and epoch stamps read in their unit (`timeUnit`) are
    /// far below it; epoch microseconds (1.7·10¹⁵) and nanoseconds (1.7·10¹⁸, where a `Double`
    /// no longer holds every whole second) read as seconds are above it, and the error names the
    /// unit they look like (times of 2001 to 2099), or nanoseconds since the device started
    /// (Android's and Linux IIO's stamps, up to about 3 years; both named when both fit, the
    /// epoch first from 2010 on). Epoch milliseconds read as seconds (1.7·10¹², below 10¹³ until the
    /// year 2286) are not: a file that does not state its time unit gets the error asking for
    /// one at its second row, as before. At 10¹³ s a `Double` still resolves 2 ms.
    public static var maximumTimeSeconds: Double { 1e13 }
    /// `maximumTimeSeconds` as messages say it.
    static let maximumTimeText = "1e13 s, about 317,000 years"

    /// Normalised header names accepted for the time column, most preferred first.
    public static let timeColumnNames = [
        "time_s", "seconds_elapsed", "time", "timestamp", "t", "elapsed", "elapsed_time", "seconds",
        "time_ms", "time_us", "time_ns", "timestamp_s", "timestamp_ms", "timestamp_us", "timestamp_ns",
        "time_since_start_in_ms", "accelerometertimestamp_sincereboot", "relative_time", "datetime", "date_time",
    ]
    /// Normalised header names accepted for the x acceleration column, most preferred first.
    public static let xColumnNames = axisNames("x")
    /// Normalised header names accepted for the y acceleration column, most preferred first.
    public static let yColumnNames = axisNames("y")
    /// Normalised header names accepted for the z acceleration column, most preferred first.
    public static let zColumnNames = axisNames("z")
    /// Normalised header names accepted for the label column.
    public static let labelColumnNames = ["shake", "is_shake", "shaking", "label"]

    /// Normalised g-force names of axis `a` (`gfx`, `g_force_x`), which, when present, are chosen
    /// before every other name in `xColumnNames` … : Physics Toolbox's multi-record export holds
    /// `gFx,gFy,gFz` (g-force, gravity included) and `ax,ay,az` (its linear accelerometer: gravity
    /// taken out, and zeros when that sensor is off).
    static func gForceColumnNames(_ a: String) -> [String] { ["gf\(a)", "g_force_\(a)"] }

    private static func axisNames(_ a: String) -> [String] {
        [a, "a\(a)", "acc_\(a)", "accel_\(a)", "acceleration_\(a)", "accelerometer_\(a)", "acc\(a)",
         "accel\(a)", "acceleration\(a)", "\(a)_acc", "\(a)_accel", "\(a)_acceleration", "a_\(a)",
         "gf\(a)", "g_force_\(a)", "accelerometeracceleration\(a)", "sensor_accelerometer\(a)",
         "values_\(a == "x" ? 0 : a == "y" ? 1 : 2)"]  // Android's `SensorEvent.values[0]`…
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return String(s)
    }
}
