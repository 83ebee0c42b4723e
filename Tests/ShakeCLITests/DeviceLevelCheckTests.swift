import Foundation
import ShakeDetection
import ShakeIIO
import Testing
@testable import ShakeCLI

/// What `live` and `record` say of a device whose first samples, still, read gravity wrong (the
/// emulator tests check a doubled scale end to end; these the other wordings).
@Suite struct DeviceLevelCheckTests {
    /// `seconds` of a device lying still at `level` m/s² on z, 100 Hz.
    static func still(level: Double, seconds: Double = 1) -> [Sample] {
        (0..<Int(seconds * 100)).map { Sample(time: Double($0) / 100, x: 0, y: 0, z: level) }
    }

    static func warnings(_ samples: [Sample], device: AccelerometerDescription) -> [String] {
        var check = DeviceLevelCheck()
        return samples.compactMap { check.add($0, device: device) }
    }

    @Test func aSensorThatReadsNothingIsSaidToReadNoGravity() {
        let device = AccelerometerDescription(id: "iio:device0", name: "bma250", scale: 0.038, offset: -258)
        #expect(Self.warnings(Self.still(level: 0), device: device) == [
            "Warning: bma250 reads |a| near 0 m/s² while still, where gravity alone is 9.8 m/s²: it reads no gravity "
                + "(a sensor that reads nothing, or an offset that cancels it); check in_accel_scale (0.038) and "
                + "in_accel_offset (-258). Until they are right, shakes are misjudged.\n",
        ])
    }

    /// A scale ten times too small reads |a| near 1 (the library calls it "in g"): for a device it
    /// is the same fault, and so is one a hundred times too small. With an offset, no scale is
    /// suggested (it would not be right).
    @Test func aScaleTenTimesTooSmallIsSaidSo() {
        let plain = AccelerometerDescription(id: "iio:device0", scale: 0.0004788, offset: 0)
        #expect(Self.warnings(Self.still(level: 0.98), device: plain) == [
            "Warning: iio:device0 reads |a| near 0.98 m/s² while still, where gravity alone is 9.8 m/s²: its readings "
                + "are about 10 times too small. Check in_accel_scale (0.000479) and in_accel_offset (0); a scale of "
                + "about 0.00479 would read 9.8. Until they are right, shakes are misjudged.\n",
        ])
        // A hundred times too small is still a scale (not a sensor reading nothing, under 0.05).
        let hundredth = Self.warnings(Self.still(level: 0.098), device: plain)
        #expect(hundredth.count == 1 && hundredth[0].contains("its readings are about 100 times too small")
            && hundredth[0].contains("a scale of about 0.0479 would read 9.8"), "\(hundredth)")
        let offset = AccelerometerDescription(id: "iio:device0", scale: 0.0004788, offset: 12)
        let said = Self.warnings(Self.still(level: 0.98), device: offset)
        #expect(said.count == 1 && !said[0].contains("a scale of about"), "\(said)")
    }

    /// Moving from its first sample but far too weak to hold gravity (here a scale ten times
    /// too small while the device sways): said, in the words for motion.
    @Test func aDeviceTooWeakWhileMovingIsSaidToBe() {
        let device = AccelerometerDescription(id: "iio:device0", name: "lis3dh", scale: 0.000958, offset: 0)
        let swaying = (0..<200).map { index in
            Sample(time: Double(index) / 100, x: 1.5 * sin(Double(index) * 0.1), y: 0, z: 0.98)
        }
        #expect(Self.warnings(swaying, device: device) == [
            "Warning: lis3dh reads |a| averaging 1.41 m/s² over its first 64 samples, where with gravity in it the "
                + "average is 9.8 m/s² or more: its readings are too small or hold no gravity. Check in_accel_scale "
                + "(0.000958) and in_accel_offset (0). Until they are right, shakes are missed.\n",
        ])
    }

    /// Once a run: a reconnection checks again but does not say it twice; a device that reads
    /// right, or moves from its first sample, says nothing.
    @Test func itWarnsOnceAndOnlyWhenStillAndOff() {
        let device = AccelerometerDescription(id: "iio:device0", scale: 0.009576, offset: 0)
        var check = DeviceLevelCheck()
        var said = Self.still(level: 19.6).compactMap { check.add($0, device: device) }
        check.restart()
        said += Self.still(level: 19.6).compactMap { check.add($0, device: device) }
        #expect(said.count == 1)
        #expect(Self.warnings(Self.still(level: 9.81), device: device).isEmpty)
        let moving = (0..<200).map { index in
            Sample(time: Double(index) / 100, x: 20 * sin(Double(index) * 0.25), y: 0, z: 19.6)
        }
        #expect(Self.warnings(moving, device: device).isEmpty)
    }

    /// A device that read right, then reconnects reading twice gravity (reset to another range
    /// without its scale read again): the new connection's first samples are checked, and said,
    /// with the scale that would read 9.8.
    @Test func aReconnectionThatReadsWrongIsSaid() {
        let device = AccelerometerDescription(id: "iio:device0", scale: 0.009576, offset: nil)
        var check = DeviceLevelCheck()
        var said = Self.still(level: 9.81).compactMap { check.add($0, device: device) }
        #expect(said.isEmpty)
        check.restart()
        said += Self.still(level: 19.6).compactMap { check.add($0, device: device) }
        #expect(said == [
            "Warning: iio:device0 reads |a| near 19.6 m/s² while still, where gravity alone is 9.8 m/s²: its readings "
                + "are about 2 times too large. Check in_accel_scale (0.00958) and in_accel_offset (not given); a scale "
                + "of about 0.00479 would read 9.8. Until they are right, shakes are misjudged.\n",
        ])
    }
}

