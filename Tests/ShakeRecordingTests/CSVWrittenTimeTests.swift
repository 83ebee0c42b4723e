import Foundation
import ShakeDetection
import Testing

@testable import ShakeRecording

/// Times written as dates or clock times (Physics Toolbox, MATLAB, ISO 8601 loggers) are read as
/// seconds since the first row's midnight; a time that is not written like the column's first,
/// or a date that does not exist, is an error at its field.
@Suite struct CSVWrittenTimeTests {
    static func times(_ text: String, options: CSVImportOptions = .canonical) throws -> [Double] {
        try RecordingReader.readAll(bytes: Array(text.utf8), name: "t.csv", options: options).samples.map(\.sample.time)
    }

    static func error(_ text: String, options: CSVImportOptions = .canonical) -> RecordingError? {
        do {
            _ = try RecordingReader.readAll(bytes: Array(text.utf8), name: "t.csv", options: options)
            return nil
        } catch {
            return error
        }
    }

    static func expectTimes(_ got: [Double], _ want: [Double], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(got.count == want.count, sourceLocation: sourceLocation)
        for (g, w) in zip(got, want) {
            #expect(abs(g - w) < 1e-9, "\(got) vs \(want)", sourceLocation: sourceLocation)
        }
    }

    @Test func physicsToolboxOnIOSWritesDatesInTheTimeColumn() throws {
        let text = """
            time,gFx,gFy,gFz,gFTotal
            2018-10-03 17:23:55.4640,0.035,-0.517,-0.821,0.971
            2018-10-03 17:23:55.4650,0.036,-0.517,-0.821,0.971
            2018-10-03 17:23:55.4750,0.040,-0.500,-0.800,0.950

            """
        let rows = try RecordingReader.readAll(bytes: Array(text.utf8), name: "sensor.csv").samples
        Self.expectTimes(rows.map(\.sample.time), [62635.464, 62635.465, 62635.475])
        #expect(abs(rows[2].sample.x - 0.040 * 9.80665) < 1e-12)
    }

    @Test func physicsToolboxOnAndroidWritesMillisecondsAfterAFourthColon() throws {
        Self.expectTimes(
            try Self.times("time,ax,ay,az,aT\n13:05:10:123,0,0,9.8,9.8\n13:05:10:133,0,0,9.8,9.8\n"),
            [47110.123, 47110.133])
    }

    @Test func matlabDatetimesAndISOStampsInOneColumn() throws {
        Self.expectTimes(
            try Self.times("""
                Timestamp,X,Y,Z
                01-Jan-2024 10:00:00.000,0.1,0.2,9.8
                01-jan-2024 10:00:00.020,0.1,0.2,9.8
                2024-01-01T10:00:00.04,0.1,0.2,9.8
                "2024/01/01 10:00:00,06",0.1,0.2,9.8

                """),
            [36000, 36000.02, 36000.04, 36000.06])
    }

    /// Stamps with UTC offsets are compared in UTC: across a change to summer time the clock
    /// jumps an hour and the samples stay 10 ms apart.
    @Test func utcOffsetsAreTakenIntoAccount() throws {
        Self.expectTimes(
            try Self.times("""
                time,x,y,z
                2024-03-31T01:59:59.990+01:00,0,0,9.8
                2024-03-31T03:00:00.000+0200,0,0,9.8
                2024-03-31T01:00:00.010Z,0,0,9.8
                2024-03-31T03:00:00.020+02,0,0,9.8

                """),
            [7199.99, 7200, 7200.01, 7200.02])
        Self.expectTimes(
            try Self.times("time,x,y,z\n2024-03-31T01:59:59.990+01:00,0,0,9.8\n2024-03-31T03:00:00.000+02:00,0,0,9.8\n",
                           options: CSVImportOptions(rebasesTime: true)),
            [0, 0.01])
    }

    /// West of Greenwich the offsets are negative: across the American change to summer time
    /// (-05:00 to -04:00) the samples stay 10 ms apart too.
    @Test func negativeUTCOffsetsAreWestOfUTC() throws {
        Self.expectTimes(
            try Self.times("""
                time,x,y,z
                2024-03-10T01:59:59.990-05:00,0,0,9.8
                2024-03-10T03:00:00.000-0400,0,0,9.8
                2024-03-10T07:00:00.010Z,0,0,9.8
                2024-03-10T03:00:00.020-04,0,0,9.8

                """),
            [7199.99, 7200, 7200.01, 7200.02])
    }

    @Test func datesCrossMidnightMonthsAndLeapDays() throws {
        for (before, after) in [
            ("2023-12-31 23:59:59.995", "2024-01-01 00:00:00.005"),
            ("2024-02-28 23:59:59.995", "2024-02-29 00:00:00.005"),
            ("2023-02-28 23:59:59.995", "2023-03-01 00:00:00.005"),
            ("2100-02-28 23:59:59.995", "2100-03-01 00:00:00.005"),
            ("29-Feb-2000 23:59:59.995", "01-Mar-2000 00:00:00.005"),
        ] {
            let t = try Self.times("time,x,y,z\n\(before),0,0,9.8\n\(after),0,0,9.8\n")
            Self.expectTimes(t, [86399.995, 86400.005])
        }
        #expect(WrittenTime.daysSinceEpoch(year: 1970, month: 1, day: 1) == 0)
        #expect(WrittenTime.daysSinceEpoch(year: 1969, month: 12, day: 31) == -1)
        #expect(WrittenTime.daysSinceEpoch(year: 2000, month: 3, day: 1) == 11017)
        #expect(WrittenTime.daysSinceEpoch(year: 2024, month: 2, day: 29) == 19782)
        #expect(WrittenTime.daysSinceEpoch(year: 1, month: 1, day: 1) == -719_162)
        #expect(WrittenTime.daysSinceEpoch(year: 9999, month: 12, day: 31) == 2_932_896)
    }

    /// A clock without a date starts again at midnight (minutes and seconds: every hour); a
    /// step back of more than half its period is read as that.
    @Test func clockTimesPassMidnightAndTheHour() throws {
        Self.expectTimes(
            try Self.times("time,x,y,z\n23:59:59.990,0,0,9.8\n00:00:00.000,0,0,9.8\n00:00:00.010,0,0,9.8\n"),
            [86399.99, 86400, 86400.01])
        Self.expectTimes(
            try Self.times("time,x,y,z\n59:59.99,0,0,9.8\n00:00.00,0,0,9.8\n00:00.01,0,0,9.8\n"),
            [3599.99, 3600, 3600.01])
        let back = try #require(Self.error("time,x,y,z\n10:00:00.5,0,0,9.8\n10:00:00.4,0,0,9.8\n"))
        #expect(back.kind == .timeBackwards)
        #expect(back.line == 3 && back.column == 1)
        #expect(back.message == "time goes backwards: 36000.4 s after 36000.5 s on line 2 (the column holds times "
            + "of day, read as seconds since the first row's midnight)")
    }

    /// A leap second (second 60) exists: it is read, in each form with seconds.
    @Test func aLeapSecondIsRead() throws {
        Self.expectTimes(
            try Self.times("time,x,y,z\n23:59:59.5,0,0,9.8\n23:59:60.5,0,0,9.8\n"), [86399.5, 86400.5])
        Self.expectTimes(
            try Self.times("time,x,y,z\n2016-12-31 23:59:60.25Z,0,0,9.8\n"), [86400.25])
        Self.expectTimes(
            try Self.times("time,x,y,z\n59:60.5,0,0,9.8\n"), [3600.5])
    }

    @Test(arguments: [
        ("2023-02-29 10:00:00", "day 29 (February 2023 has 28 days)"),
        ("2024-13-01 10:00:00", "month 13 (months are 1 to 12)"),
        ("0000-01-01 10:00:00", "year 0 (years are 1 to 9999)"),
        ("31-Apr-2024 10:00:00", "day 31 (April 2024 has 30 days)"),
        ("24:00:00.0", "hour 24 (hours are 0 to 23)"),
        ("10:60:00.0", "minute 60 (minutes are 0 to 59)"),
        ("10:00:61.0", "second 61 (seconds are 0 to 59, or 60 for a leap second)"),
        ("60:00.5", "minute 60 (minutes are 0 to 59)"),
        ("2024-01-01T10:00:00+24:00", "UTC offset 24:00 (at most 23:59)"),
        ("2024-01-01T10:00:00-05:60", "UTC offset 5:60 (at most 23:59)"),
    ])
    func aTimeThatDoesNotExistIsAnError(written: String, reason: String) throws {
        let error = try #require(Self.error("x,time,y,z\n0,\(written),0,9.8\n"))
        #expect(error.kind == .notANumber)
        #expect((error.line, error.column) == (2, 3))
        #expect(error.message == "'\(written)' in column 'time' is not a valid time: \(reason)")
    }

    @Test func everyTimeMustBeWrittenLikeTheFirst() throws {
        let cases: [(text: String, message: String)] = [
            ("time,x,y,z\n10:00:00.5,0,0,9.8\n10.5,0,0,9.8\n",
             "'10.5' in column 'time' is not a time of day like the column's first time (line 2)"),
            ("time,x,y,z\n10:00:00.5,0,0,9.8\n2024-01-01 10:00:00.6,0,0,9.8\n",
             "'2024-01-01 10:00:00.6' in column 'time' is a date and time, but the column's first time (line 2) is a time of day"),
            ("time,x,y,z\n10.5,0,0,9.8\n10:00:00.6,0,0,9.8\n",
             "'10:00:00.6' in column 'time' is a time of day, but the times before it are numbers (as on line 2)"),
            ("time,x,y,z\n10:00:00.5,0,0,9.8\n,0,0,9.8\n",
             "missing value in column 'time'"),
            // UTC or local time? Either guess could be an hour or more off (it was taken as UTC).
            ("time,x,y,z\n2024-01-31T13:05:10.00+01:00,0,0,9.8\n2024-01-31T13:05:10.01,0,0,9.8\n",
             "'2024-01-31T13:05:10.01' in column 'time' has no UTC offset, but the column's first time (line 2) has one: "
                + "write every time the same way"),
            ("time,x,y,z\n2024-01-31 13:05:10.00,0,0,9.8\n2024-01-31 12:05:10.01Z,0,0,9.8\n",
             "'2024-01-31 12:05:10.01Z' in column 'time' has a UTC offset, but the column's first time (line 2) has none: "
                + "write every time the same way"),
        ]
        for c in cases {
            let error = try #require(Self.error(c.text))
            #expect(error.kind == .notANumber)
            #expect((error.line, error.column) == (3, 1))
            #expect(error.message == c.message)
        }
    }

    /// Two fields without a fraction (`13:05`) could be hours and minutes or minutes and
    /// seconds; day-first dates with slashes could be either order: neither is guessed.
    @Test(arguments: ["13:05", "01/02/2024 10:00:00", "2024-01-01", "10:00:00 PM", "2024-01-01T10:00:00.5 UTC"])
    func ambiguousOrUnknownFormsAreNotGuessed(written: String) throws {
        let error = try #require(Self.error("time,x,y,z\n\(written),0,0,9.8\n"))
        #expect(error.kind == .notANumber)
        #expect(error.optionHint == .timeColumn)
        #expect(error.message.hasPrefix("'\(written)' is not a number in column 'time' (a time written as a date or clock time is read in these forms only: "))
    }

    @Test func aTimeUnitOptionIsRefusedForWrittenTimes() throws {
        let error = try #require(Self.error(
            "time,x,y,z\n13:05:10:123,0,0,9.8\n", options: CSVImportOptions(timeUnit: .milliseconds)))
        #expect(error.kind == .invalidArgument)
        #expect(error.optionHint == .noTimeUnit)
        #expect(error.message.contains(RecordingError.OptionHint.noTimeUnit.rawValue))
    }

    /// A canonical layout (`time_s,x,y,z`) with written times is read by the general path, and a
    /// file large enough to be split is read whole by one parser: the same samples either way.
    @Test func writtenTimesAreNotSplitAcrossThreads() throws {
        var text = "time_s,x,y,z\n"
        for i in 0 ..< 3000 {
            let ms = i * 10
            text += String(format: "12:%02d:%02d.%03d,0,%d,9.8\n", ms / 60_000 % 60, ms / 1000 % 60, ms % 1000, i % 7)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("written-time-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("r.csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let plain = RecordingReadAheadSplitTests.plain(path)
        let (split, wasSplit) = RecordingReadAheadSplitTests.split(path, partBytes: 256)
        #expect(plain.error == nil)
        #expect(plain.samples.count == 3000)
        #expect(split == plain)
        #expect(!wasSplit)
        #expect(abs(Double(bitPattern: plain.samples[2999][0]) - (43200 + 29.99)) < 1e-9)
    }
}
