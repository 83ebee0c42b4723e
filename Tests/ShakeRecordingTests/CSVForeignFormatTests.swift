import Foundation
import ShakeDetection
import ShakeRecording
import Testing

/// Exports of phone sensor apps and other CSV dialects load with at most a flag or two.
@Suite struct CSVForeignFormatTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var options: CSVImportOptions
        var samples: [Sample]
        var testDescription: String { name }
    }

    static let g = 9.80665

    static let cases: [Case] = [
        Case(
            name: "phyphox: quoted headers with units in parentheses",
            text: """
                "Time (s)","Acceleration x (m/s^2)","Acceleration y (m/s^2)","Acceleration z (m/s^2)","Absolute acceleration (m/s^2)"
                0.000000000E0,1.234000000E-1,-2.500000000E0,9.810000000E0,9.89
                1.002000000E-2,1.300000000E-1,-2.400000000E0,9.800000000E0,9.88

                """,
            options: .canonical,
            samples: [Sample(time: 0, x: 0.1234, y: -2.5, z: 9.81), Sample(time: 0.01002, x: 0.13, y: -2.4, z: 9.8)]),
        Case(
            name: "Android SensorEvent dump: timestamp in ns since boot, values[0] to values[2]",
            text: """
                timestamp,values[0],values[1],values[2]
                261234567890123,0.1,-0.2,9.8
                261234577890123,0.2,-0.3,9.7

                """,
            options: CSVImportOptions(timeUnit: .nanoseconds, rebasesTime: true),
            samples: [Sample(time: 0, x: 0.1, y: -0.2, z: 9.8), Sample(time: 0.01, x: 0.2, y: -0.3, z: 9.7)]),
        Case(
            name: "Sensor Logger: ns epoch time, seconds_elapsed, z,y,x order",
            text: """
                time,seconds_elapsed,z,y,x
                1700000000000000000,0.0,9.7,0.2,-0.1
                1700000000010000000,0.01,9.6,0.3,-0.2

                """,
            options: .canonical,
            samples: [Sample(time: 0, x: -0.1, y: 0.2, z: 9.7), Sample(time: 0.01, x: -0.2, y: 0.3, z: 9.6)]),
        Case(
            name: "nanosecond timestamps only, rebased",
            text: """
                timestamp,x,y,z
                1700000000000000000,-0.1,0.2,9.7
                1700000000010000000,-0.2,0.3,9.6

                """,
            options: CSVImportOptions(timeUnit: .nanoseconds, rebasesTime: true),
            samples: [Sample(time: 0, x: -0.1, y: 0.2, z: 9.7), Sample(time: 0.01, x: -0.2, y: 0.3, z: 9.6)]),
        Case(
            name: "time in ms from the header name",
            text: "time_ms,ax,ay,az\n0,0,0,9.8\n10,0,0,9.8\n",
            options: .canonical,
            samples: [Sample(time: 0, x: 0, y: 0, z: 9.8), Sample(time: 0.01, x: 0, y: 0, z: 9.8)]),
        Case(
            name: "Physics Toolbox g-force: gFx in g",
            text: "time,gFx,gFy,gFz,TgF\n0.000,0.01,-0.02,1.00,1.0\n0.010,0.5,0,-2,2.06\n",
            options: .canonical,
            samples: [Sample(time: 0, x: 0.01 * g, y: -0.02 * g, z: 1.0 * g), Sample(time: 0.01, x: 0.5 * g, y: 0, z: -2 * g)]),
        Case(
            name: "AndroSensor: semicolons, ACCELEROMETER X (m/s²), time since start in ms, other sensors beside",
            text: """
                ACCELEROMETER X (m/s²);ACCELEROMETER Y (m/s²);ACCELEROMETER Z (m/s²);LINEAR ACCELERATION X (m/s²);\
                LINEAR ACCELERATION Y (m/s²);LINEAR ACCELERATION Z (m/s²);GRAVITY X (m/s²);GRAVITY Y (m/s²);\
                GRAVITY Z (m/s²);Time since start in ms ;YYYY-MO-DD HH-MI-SS_SSS
                0.12;-0.3;9.79;0.01;0.02;-0.01;0.11;-0.32;9.8;0;2024-01-01 10-00-00_000
                4.5;-1.25;11.0;4.4;-0.93;1.2;0.1;-0.32;9.8;20;2024-01-01 10-00-00_020

                """,
            options: .canonical,
            samples: [Sample(time: 0, x: 0.12, y: -0.3, z: 9.79), Sample(time: 0.02, x: 4.5, y: -1.25, z: 11.0)]),
        // Excel's separator line before the header: it names the separator, here with decimal
        // commas, where the header alone would be split at its commas.
        Case(
            name: "Excel's sep=; line, then semicolons and decimal commas",
            text: "sep=;\nTime (s);Acceleration x (m/s^2);Acceleration y (m/s^2);Acceleration z (m/s^2)\n0,0;0,5;-0,25;9,75\n0,01;1,5;0;9,5\n",
            options: CSVImportOptions(decimalSeparator: .comma),
            samples: [Sample(time: 0, x: 0.5, y: -0.25, z: 9.75), Sample(time: 0.01, x: 1.5, y: 0, z: 9.5)]),
        Case(
            name: "Excel's SEP=, line, comments before it",
            text: "# source: logger\nSEP=,\ntime_s,x,y,z\n0,1,2,9\n0.01,1,2,9.5\n",
            options: .canonical,
            samples: [Sample(time: 0, x: 1, y: 2, z: 9), Sample(time: 0.01, x: 1, y: 2, z: 9.5)]),
        Case(
            name: "SensorLog (iOS): accelerometerAccelerationX(G), timestamp since reboot, motion columns beside",
            text: """
                loggingTime(txt),loggingSample(N),accelerometerTimestamp_sinceReboot(s),\
                accelerometerAccelerationX(G),accelerometerAccelerationY(G),accelerometerAccelerationZ(G),\
                motionUserAccelerationX(G),motionUserAccelerationY(G),motionUserAccelerationZ(G)
                2024-01-01T10:00:00.000+01:00,0,8455.250000,0.012,-0.020,-0.998,0.001,0.000,0.002
                2024-01-01T10:00:00.010+01:00,1,8455.260000,0.500,0.000,-2.000,0.488,0.020,-1.001

                """,
            options: .canonical,
            samples: [Sample(time: 8455.25, x: 0.012 * g, y: -0.02 * g, z: -0.998 * g),
                      Sample(time: 8455.26, x: 0.5 * g, y: 0, z: -2 * g)]),
        Case(
            name: "Science Journal: relative_time in ms (by option), AccX",
            text: "relative_time,AccX,AccY,AccZ\n0,0.0567,4.4392,8.5864\n37,-0.2235,4.7722,8.1226\n",
            options: CSVImportOptions(timeUnit: .milliseconds),
            samples: [Sample(time: 0, x: 0.0567, y: 4.4392, z: 8.5864), Sample(time: 0.037, x: -0.2235, y: 4.7722, z: 8.1226)]),
        Case(
            name: "semicolons and decimal commas",
            text: "time;gFx;gFy;gFz\n0,000;0,01;-0,02;1,00\n0,010;0,5;0;-2\n",
            options: CSVImportOptions(decimalSeparator: .comma),
            samples: [Sample(time: 0, x: 0.01 * g, y: -0.02 * g, z: 1.0 * g), Sample(time: 0.01, x: 0.5 * g, y: 0, z: -2 * g)]),
        Case(
            name: "semicolon separator",
            text: "time_s;x;y;z\n0;1;2;3\n0.5;4;5;6\n",
            options: .canonical,
            samples: [Sample(time: 0, x: 1, y: 2, z: 3), Sample(time: 0.5, x: 4, y: 5, z: 6)]),
        Case(
            name: "tab separator",
            text: "time_s\tx\ty\tz\n0\t1\t2\t3\n0.5\t4\t5\t6\n",
            options: CSVImportOptions(separator: .tab),
            samples: [Sample(time: 0, x: 1, y: 2, z: 3), Sample(time: 0.5, x: 4, y: 5, z: 6)]),
        Case(
            name: "pipe separator, detected",
            text: "time_s|x|y|z\n0|1|2|3\n0.5|4|5|6\n",
            options: .canonical,
            samples: [Sample(time: 0, x: 1, y: 2, z: 3), Sample(time: 0.5, x: 4, y: 5, z: 6)]),
        Case(
            name: "pipe separator by option, quoted names, decimal commas",
            text: "\"Time (s)\"|\"Acceleration x (m/s^2)\"|\"Acceleration y (m/s^2)\"|\"Acceleration z (m/s^2)\"\n0,0|0,5|-0,25|9,75\n0,01|1,5|0|9,5\n",
            options: CSVImportOptions(separator: .pipe, decimalSeparator: .comma),
            samples: [Sample(time: 0, x: 0.5, y: -0.25, z: 9.75), Sample(time: 0.01, x: 1.5, y: 0, z: 9.5)]),
        Case(
            name: "pipe separator with decimal commas, detected",
            text: "time_s|x|y|z\n0,0|0,5|-0,25|9,75\n0,01|1,5|0|9,5\n",
            options: CSVImportOptions(decimalSeparator: .comma),
            samples: [Sample(time: 0, x: 0.5, y: -0.25, z: 9.75), Sample(time: 0.01, x: 1.5, y: 0, z: 9.5)]),
        Case(
            name: "Excel's sep=| line",
            text: "sep=|\ntime_s|x|y|z\n0|1|2|9\n0.01|1|2|9.5\n",
            options: .canonical,
            samples: [Sample(time: 0, x: 1, y: 2, z: 9), Sample(time: 0.01, x: 1, y: 2, z: 9.5)]),
        // A name holding pipes does not outvote the commas that separate the fields.
        Case(
            name: "a column named |a| in a comma-separated header",
            text: "time_s,x,y,z,|a|\n0,1,2,3,3.74\n0.5,4,5,6,8.77\n",
            options: .canonical,
            samples: [Sample(time: 0, x: 1, y: 2, z: 3), Sample(time: 0.5, x: 4, y: 5, z: 6)]),
        Case(
            name: "milli-g by option, epoch milliseconds rebased",
            text: "timestamp,accel_x,accel_y,accel_z\n1700000000000,0,-1000,0\n1700000000020,500,0,1000\n",
            options: CSVImportOptions(accelerationUnit: .milliG, timeUnit: .milliseconds, rebasesTime: true),
            samples: [Sample(time: 0, x: 0, y: -g, z: 0), Sample(time: 0.02, x: 0.5 * g, y: 0, z: g)]),
        Case(
            name: "columns chosen by name and units in brackets",
            text: "t [us],a1 [g],a2 [g],a3 [g],marker\n0,0,0,1,0\n2500,0,1,0,1\n",
            options: CSVImportOptions(x: .named("A1"), y: .named("a2"), z: .named("a3 [g]"), label: .named("marker")),
            samples: [Sample(time: 0, x: 0, y: 0, z: g), Sample(time: 0.0025, x: 0, y: g, z: 0)]),
        Case(
            name: "edge-ml: sensor_AccelerometerX[], epoch ms, gyroscope rows between (skipped by option)",
            text: """
                time,sensor_AccelerometerX[],sensor_AccelerometerY[],sensor_AccelerometerZ[],\
                sensor_GyroscopeX[],sensor_GyroscopeY[],sensor_GyroscopeZ[],label_shakestill_STILL,label_shakestill_shake
                1659956794529,-0.3,5.1,8.8,,,,x,
                1659956794534,,,,0.0069,0.0418,0.0139,x,
                1659956794549,-0.3,5.2,8.6,,,,,x

                """,
            options: CSVImportOptions(timeUnit: .milliseconds, rebasesTime: true, skipsRowsWithoutAcceleration: true),
            samples: [Sample(time: 0, x: -0.3, y: 5.1, z: 8.8), Sample(time: 0.02, x: -0.3, y: 5.2, z: 8.6)]),
        Case(
            name: "Physics Toolbox multi record: gFx (with gravity) chosen over the linear accelerometer's ax (zeros when off)",
            text: """
                time,gFx,gFy,gFz,ax,ay,az,wx,wy,wz,p,Bx,By,Bz,Azimuth,Pitch,Roll,Latitude,Longitude,Speed (m/s)
                0.078756,-0.0488,0.3217,1.0039,0.0000,0.0000,0.0000,0.01,0.02,0.03,1013.2,12.1,-3.4,40.2,10,20,30,0,0,0
                0.123827,-0.0500,0.3200,1.0100,0.0000,0.0000,0.0000,0.01,0.02,0.03,1013.2,12.1,-3.4,40.2,10,20,30,0,0,0

                """,
            options: .canonical,
            samples: [Sample(time: 0.078756, x: -0.0488 * g, y: 0.3217 * g, z: 1.0039 * g),
                      Sample(time: 0.123827, x: -0.05 * g, y: 0.32 * g, z: 1.01 * g)]),
        Case(
            name: "Physics Toolbox in a decimal-comma locale: semicolons and the minus sign U+2212",
            text: "time;gFx;gFy;gFz;TgF\n0,10;0,1178;\u{2212}0,5612;0,8295;1,0\n0,20;\u{2212}0,1180;\"\u{2212}0,5610\";0,8290;1,0\n",
            options: CSVImportOptions(decimalSeparator: .comma),
            samples: [Sample(time: 0.1, x: 0.1178 * g, y: -0.5612 * g, z: 0.8295 * g),
                      Sample(time: 0.2, x: -0.118 * g, y: -0.561 * g, z: 0.829 * g)]),
        Case(
            name: "phyphox CSV (Semicolon, decimal comma)",
            text: """
                "Time (s)";"Acceleration x (m/s^2)";"Acceleration y (m/s^2)";"Acceleration z (m/s^2)";"Absolute acceleration (m/s^2)"
                3,650000000E-4;-1,640000000E-3;7,429290000E0;6,333660000E0;9,762786380E0
                1,005000000E-2;8,050000000E-3;7,442930000E0;6,360420000E0;9,790150080E0

                """,
            options: CSVImportOptions(decimalSeparator: .comma),
            samples: [Sample(time: 0.000365, x: -0.00164, y: 7.42929, z: 6.33366), Sample(time: 0.01005, x: 0.00805, y: 7.44293, z: 6.36042)]),
        Case(
            name: "phyphox CSV (Tabulator, decimal comma)",
            text: "\"Time (s)\"\t\"Acceleration x (m/s^2)\"\t\"Acceleration y (m/s^2)\"\t\"Acceleration z (m/s^2)\"\n"
                + "0,000000000E0\t1,234000000E-1\t-2,500000000E0\t9,810000000E0\n1,002000000E-2\t1,300000000E-1\t-2,400000000E0\t9,800000000E0\n",
            options: CSVImportOptions(decimalSeparator: .comma),
            samples: [Sample(time: 0, x: 0.1234, y: -2.5, z: 9.81), Sample(time: 0.01002, x: 0.13, y: -2.4, z: 9.8)]),
        Case(
            name: "Sensor Logger TotalAcceleration.csv (with gravity), epoch ns rebased instead of seconds_elapsed",
            text: "time,seconds_elapsed,z,y,x\n1700000000123456789,0.000,9.7,0.2,-0.1\n1700000000133456789,0.010,9.6,0.3,-0.2\n",
            options: CSVImportOptions(time: .named("time"), timeUnit: .nanoseconds, rebasesTime: true),
            samples: [Sample(time: 0, x: -0.1, y: 0.2, z: 9.7), Sample(time: 0.01, x: -0.2, y: 0.3, z: 9.6)]),
        Case(
            name: "MATLAB Mobile timetable written with writetimetable: Timestamp as dd-MMM-yyyy",
            text: "Timestamp,X,Y,Z\n31-Jan-2024 13:05:10.250,-0.0016,7.4293,6.3337\n31-Jan-2024 13:05:10.260,0.0080,7.4429,6.3604\n",
            options: CSVImportOptions(rebasesTime: true),
            samples: [Sample(time: 0, x: -0.0016, y: 7.4293, z: 6.3337), Sample(time: 0.01, x: 0.008, y: 7.4429, z: 6.3604)]),
        Case(
            name: "DateTime column of dates, magnitude beside: found with no flag",
            text: "DateTime;Magnitude;X;Y;Z\n2015-01-01 12:00:00.00;9.81;0.1;0.2;9.8\n2015-01-01 12:00:00.02;9.9;0.3;0.2;9.9\n",
            options: CSVImportOptions(rebasesTime: true),
            samples: [Sample(time: 0, x: 0.1, y: 0.2, z: 9.8), Sample(time: 0.02, x: 0.3, y: 0.2, z: 9.9)]),
        Case(
            name: "micro:bit data logger: Time (seconds), x, y, z in mg (by option)",
            text: "Time (seconds),x,y,z\n0.00,0,758,646\n0.02,-1024,12,1000\n",
            options: CSVImportOptions(accelerationUnit: .milliG),
            samples: [Sample(time: 0, x: 0, y: 0.758 * g, z: 0.646 * g), Sample(time: 0.02, x: -1.024 * g, y: 0.012 * g, z: 1.0 * g)]),
        Case(
            name: "Wiimote style: timestamp_ms (unit from the name), accX in g (by option)",
            text: "timestamp_ms,accX,accY,accZ\n120,0.04,-0.96,0.12\n130,1.50,-0.50,0.00\n",
            options: CSVImportOptions(accelerationUnit: .g),
            samples: [Sample(time: 0.12, x: 0.04 * g, y: -0.96 * g, z: 0.12 * g), Sample(time: 0.13, x: 1.5 * g, y: -0.5 * g, z: 0)]),
        Case(
            name: "no header, columns by index",
            text: "17,0.5,9.8,0.1,-0.2\n18,0.51,9.7,0.2,-0.3\n",
            options: CSVImportOptions(time: .index(2), x: .index(4), y: .index(5), z: .index(3), hasHeader: false),
            samples: [Sample(time: 0.5, x: 0.1, y: -0.2, z: 9.8), Sample(time: 0.51, x: 0.2, y: -0.3, z: 9.7)]),
    ]

    /// `# key: value` lines after Excel's separator line are still before the header: metadata.
    @Test func commentsAfterTheSeparatorLineAreMetadata() throws {
        let text = "# source: logger\nsep=;\n# device: phone\ntime_s;x;y;z\n0;1;2;9\n"
        let (metadata, rows) = try RecordingReader.readAll(bytes: Array(text.utf8), name: "sep.csv")
        #expect(metadata.map(\.key) == ["source", "device"] && metadata.map(\.value) == ["logger", "phone"], "\(metadata)")
        #expect(rows.count == 1)
    }

    @Test(arguments: cases)
    func foreignExportsLoad(_ c: Case) throws {
        let (_, rows) = try RecordingReader.readAll(bytes: Array(c.text.utf8), name: c.name, options: c.options)
        try #require(rows.count == c.samples.count)
        for (row, want) in zip(rows, c.samples) {
            #expect(abs(row.sample.time - want.time) < 1e-9, "\(row.sample) vs \(want)")
            #expect(abs(row.sample.x - want.x) < 1e-9, "\(row.sample) vs \(want)")
            #expect(abs(row.sample.y - want.y) < 1e-9, "\(row.sample) vs \(want)")
            #expect(abs(row.sample.z - want.z) < 1e-9, "\(row.sample) vs \(want)")
        }
    }

    /// `count` rows of Sensor Logger's `time,seconds_elapsed,z,y,x` at 100 Hz: `gravity` adds
    /// 9.8 m/s² on z (TotalAcceleration.csv), else the rows hold a hand's small motion alone
    /// (Accelerometer.csv, whose acceleration has gravity taken out).
    static func sensorLoggerRows(_ count: Int, gravity: Bool) -> String {
        var text = "time,seconds_elapsed,z,y,x\n"
        for i in 0 ..< count {
            let wobble = 0.3 * Double((i * 7) % 5 - 2)
            text += "\(1_700_000_000_000_000_000 + i * 10_000_000),\(Double(i) / 100),\((gravity ? 9.8 : 0) + wobble),\(-wobble),0.05\n"
        }
        return text
    }

    @Test func anExportWithGravityTakenOutIsReadAndFlagged() throws {
        var reader = try RecordingReader(bytes: Array(Self.sensorLoggerRows(100, gravity: false).utf8), name: "Accelerometer.csv")
        #expect(!reader.earlyMagnitude.meanLooksGravityFree)
        #expect(reader.earlyMagnitude.mean == nil)
        var count = 0
        while try reader.next() != nil { count += 1 }
        #expect(count == 100)
        #expect(reader.earlyMagnitude.meanLooksGravityFree)
        #expect(reader.earlyMagnitude.looksGravityFree)
        #expect(reader.earlyMagnitude.count == 64, "the first 64 samples, as the README says")
        let mean = try #require(reader.earlyMagnitude.mean)
        #expect(mean > 0.05 && mean < 1)
    }

    @Test(arguments: [(100, true), (15, false)])
    func anExportWithGravityOrTooShortToTellIsNotFlagged(rows: Int, gravity: Bool) throws {
        var reader = try RecordingReader(bytes: Array(Self.sensorLoggerRows(rows, gravity: gravity).utf8))
        while try reader.next() != nil {}
        #expect(reader.samplesRead == rows)
        #expect(!reader.earlyMagnitude.looksGravityFree)
    }

    /// `sensorLoggerRows` whose first 0.6 s hold a shake along x, 15 m/s² at 4 Hz: |a| averages
    /// about 9 m/s² over the first 64 samples, as with gravity.
    static func sensorLoggerRowsStartingWithAShake(_ count: Int) -> String {
        var lines = sensorLoggerRows(count, gravity: false).split(separator: "\n").map(String.init)
        for i in 0 ..< 60 {
            var fields = lines[i + 1].split(separator: ",").map(String.init)
            fields[4] = "\(15 * sin(2 * Double.pi * 4 * Double(i) / 100))"
            lines[i + 1] = fields.joined(separator: ",")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Sensor Logger's Accelerometer.csv (gravity taken out) beginning with a shake: its |a| over
    /// the first samples is a shake's, about what gravity gives, so only its header and name tell
    /// it; the reader and both replays say so (before, nothing did, and `shake` gave no warning).
    @Test func sensorLoggersAccelerometerStartingWithAShakeIsToldByItsHeaderAndName() throws {
        let text = Self.sensorLoggerRowsStartingWithAShake(200)
        var reader = try RecordingReader(bytes: Array(text.utf8), name: "rides/Accelerometer.csv")
        while try reader.next() != nil {}
        let mean = try #require(reader.earlyMagnitude.mean)
        #expect(mean > EarlyMagnitude.gravityFreeMean, "\(mean)")
        #expect(!reader.earlyMagnitude.meanLooksGravityFree)
        #expect(reader.earlyMagnitude.gravityFreeExport == "Sensor Logger's Accelerometer.csv")
        #expect(reader.earlyMagnitude.looksGravityFree)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sensor-logger-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("Accelerometer.csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        for readAhead in [false, true] {
            var detector = ShakeDetector()
            let result = try RecordingReplay.run(path: path, detector: &detector, readAhead: readAhead)
            #expect(result.earlyMagnitude.gravityFreeExport == "Sensor Logger's Accelerometer.csv", "readAhead: \(readAhead)")
            #expect(result.earlyMagnitude.looksGravityFree, "readAhead: \(readAhead)")
            let explained = try RecordingReplay.runExplaining(
                path: path, configuration: .medium, readAhead: readAhead)
            #expect(explained.result.earlyMagnitude.looksGravityFree, "readAhead: \(readAhead)")
        }
    }

    /// Only Sensor Logger's header in a file named as its accelerometer (copies and renamed files
    /// too) is taken for it; its export with gravity, its uncalibrated accelerometer (gravity
    /// included), another header or a name that speaks of gravity is not.
    @Test func onlySensorLoggersAccelerometerIsToldByName() throws {
        let text = Self.sensorLoggerRowsStartingWithAShake(100)
        for name in ["Accelerometer.csv", "ACCELEROMETER.CSV", "Accelerometer (1).csv", "2024-01-31_Accelerometer.csv",
                     "walk 3 - Accelerometer.csv"] {
            let reader = try RecordingReader(bytes: Array(text.utf8), name: name)
            #expect(reader.earlyMagnitude.gravityFreeExport == "Sensor Logger's Accelerometer.csv", "\(name)")
        }
        for name in ["TotalAcceleration.csv", "AccelerometerUncalibrated.csv", "Accelerometer with gravity.csv",
                     "total_accelerometer.csv", "Accelerometer.csv.bak", "Accelerometer.txt", "<stdin>", "shake.csv"] {
            let reader = try RecordingReader(bytes: Array(text.utf8), name: name)
            #expect(reader.earlyMagnitude.gravityFreeExport == nil, "\(name)")
        }
        let canonical = "time_s,x,y,z\n0,0,0,0.1\n0.01,0,0,0.1\n"
        #expect(try RecordingReader(bytes: Array(canonical.utf8), name: "Accelerometer.csv").earlyMagnitude.gravityFreeExport == nil)
    }

    @Test func aLabelColumnChosenByNameIsRead() throws {
        let (_, rows) = try RecordingReader.readAll(
            bytes: Array("t [us],a1 [g],a2 [g],a3 [g],marker\n0,0,0,1,0\n2500,0,1,0,1\n".utf8),
            options: CSVImportOptions(x: .named("A1"), y: .named("a2"), z: .named("a3 [g]"), label: .named("marker")))
        #expect(rows.map(\.isShake) == [false, true])
    }

    /// A header unit in a spelling the reader does not know (`m/s²` exported in Windows-1252
    /// reads as `m/s\u{FFFD}`, or `ft/s^2`) is an error that asks for the option, and with the
    /// option the file is read in the option's unit: the error's advice works.
    @Test func aHeaderUnitNotKnownIsTheOptionsUnit() throws {
        let bytes = Array("time (min),x (m/s".utf8) + [0xB2] + Array("),y (m/s".utf8) + [0xB2] + Array("),z (m/s".utf8) + [0xB2]
            + Array(")\n0,1,2,9.5\n0.5,1,2,9.5\n".utf8)
        #expect(throws: RecordingError.self) { try RecordingReader.readAll(bytes: bytes, options: CSVImportOptions(timeUnit: .seconds)) }
        #expect(throws: RecordingError.self) { try RecordingReader.readAll(bytes: bytes, options: CSVImportOptions(accelerationUnit: .g)) }
        let (_, rows) = try RecordingReader.readAll(bytes: bytes, options: CSVImportOptions(accelerationUnit: .g, timeUnit: .milliseconds))
        #expect(rows.map(\.sample.time) == [0, 0.0005])
        #expect(rows.map(\.sample.z) == [9.5 * 9.80665, 9.5 * 9.80665])
        // A unit the reader knows is still held against the option.
        let known = Array("time_s,x (g),y (g),z (g)\n0,0,0,1\n".utf8)
        #expect(throws: RecordingError.self) { try RecordingReader.readAll(bytes: known, options: CSVImportOptions(accelerationUnit: .milliG)) }
    }

    @Test(arguments: [
        ("m/s^2", CSVImportOptions.AccelerationUnit.metersPerSecondSquared), ("M/S2", .metersPerSecondSquared), ("m/s²", .metersPerSecondSquared),
        ("m s-2", .metersPerSecondSquared), ("m.s^-2", .metersPerSecondSquared), ("m·s⁻²", .metersPerSecondSquared),
        ("m/sec^2", .metersPerSecondSquared), ("g", .g), ("mg", .milliG),
    ])
    func accelerationUnitsParseFromArguments(text: String, unit: CSVImportOptions.AccelerationUnit) {
        #expect(CSVImportOptions.AccelerationUnit(argument: text) == unit)
    }

    @Test(arguments: [("s", CSVImportOptions.TimeUnit.seconds), ("ms", .milliseconds), ("us", .microseconds), ("µs", .microseconds), ("ns", .nanoseconds)])
    func timeUnitsParseFromArguments(text: String, unit: CSVImportOptions.TimeUnit) {
        #expect(CSVImportOptions.TimeUnit(argument: text) == unit)
        #expect(CSVImportOptions.TimeUnit(argument: "fortnights") == nil)
    }

    /// How the tool's arguments name columns and separators: a whole number above 0 is a column's
    /// index, anything else (`0` too) a name; `\t` as typed in a shell is the tab.
    @Test func columnAndSeparatorArguments() {
        #expect(CSVImportOptions.Column(argument: "3") == .index(3))
        #expect(CSVImportOptions.Column(argument: "0") == .named("0"))
        #expect(CSVImportOptions.Column(argument: "-1") == .named("-1"))
        #expect(CSVImportOptions.Separator(argument: "\\t") == .tab)
        #expect(CSVImportOptions.Separator(argument: "\t") == .tab)
        #expect(CSVImportOptions.Separator(argument: "TAB") == .tab)
    }
}
