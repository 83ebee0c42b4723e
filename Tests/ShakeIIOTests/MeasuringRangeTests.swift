import Foundation
import Testing
@testable import ShakeIIO

/// The measuring range a device reports (``AccelerometerDescription/rangeMetersPerSecondSquared``),
/// from its scan format, scale and offset, and the scales it offers (`in_accel_scale_available`).
/// The emulator tests (`IIOEmulatorTests`) read both from a device through libiio.
@Suite struct MeasuringRangeTests {
    static func device(_ format: String?, scale: Double? = 0.000598, offset: Double? = nil,
                       buffered: Bool = true) -> AccelerometerDescription {
        AccelerometerDescription(id: "iio:device0", name: "lis3dh", scale: scale, offset: offset,
                                 isBufferCapable: buffered, scanFormat: format)
    }

    /// The range in counts of `scale`: range / scale, to the nearest whole count.
    static func counts(_ range: Double?, _ scale: Double = 0.000598) -> Double? {
        range.map { ($0 / scale).rounded() }
    }

    /// Signed 16 bits: 32767 counts both ways (-32768 has no positive twin), so the ±2 g scale
    /// of 0.000598 m/s² per LSB reads up to 19.6 m/s².
    @Test func signedSixteenBitsReachThirtyTwoThousandSevenHundredSixtySevenCounts() {
        #expect(Self.counts(Self.device("le:s16/16>>0").rangeMetersPerSecondSquared, 0.000598) == 32767)
        #expect(Self.counts(Self.device("be:s16/16>>0", scale: 0.004788).rangeMetersPerSecondSquared, 0.004788) == 32767)
    }

    /// 12 bits stored left-justified in 16 (lis3dh): 2047 counts, whatever the shift and storage.
    @Test func twelveBitsShiftedReachTwoThousandAndFortySevenCounts() {
        #expect(Self.counts(Self.device("le:s12/16>>4", scale: 0.009576).rangeMetersPerSecondSquared, 0.009576) == 2047)
        #expect(Self.counts(Self.device("le:s10/16>>6", scale: 0.0383).rangeMetersPerSecondSquared, 0.0383) == 511)
    }

    /// Unsigned values reach both ways only through an offset, and the smaller side counts: rest at
    /// -32768 reads 32767 counts up and 32768 down; an offset off the middle narrows one side.
    @Test func unsignedValuesAndOffsetsCountTheSmallerSide() {
        #expect(Self.counts(Self.device("le:u16/16>>0", offset: -32768).rangeMetersPerSecondSquared, 0.000598) == 32767)
        #expect(Self.counts(Self.device("le:u12/16>>4", offset: -2048).rangeMetersPerSecondSquared, 0.000598) == 2047)
        #expect(Self.counts(Self.device("le:s16/16>>0", offset: 1000).rangeMetersPerSecondSquared, 0.000598) == 31768)
        #expect(Self.counts(Self.device("le:s16/16>>0", offset: -1000).rangeMetersPerSecondSquared, 0.000598) == 31767)
        // No offset: an unsigned axis cannot read a negative acceleration at all.
        #expect(Self.device("le:u16/16>>0").rangeMetersPerSecondSquared == 0)
    }

    /// Each axis its own scale: the narrowest axis is the device's range.
    @Test func theNarrowestAxisIsTheRange() {
        var device = Self.device("le:s16/16>>0", scale: 0.004788)
        device.yzScales = [0.000598, 0.002394]
        #expect(Self.counts(device.rangeMetersPerSecondSquared, 0.000598) == 32767)
        // An axis whose scale is unknown (no number): the range is unknown too.
        device.yzScales = [nil, 0.002394]
        #expect(device.rangeMetersPerSecondSquared == nil)
    }

    /// No scale (absent or no number: raw counts say nothing of m/s²) or no scan format (a
    /// polled device; libiio gives its axes a format of 0 bits): unknown.
    @Test func withoutScaleOrScanFormatTheRangeIsUnknown() {
        #expect(Self.device("le:s16/16>>0", scale: nil).rangeMetersPerSecondSquared == nil)
        #expect(Self.device(nil).rangeMetersPerSecondSquared == nil)
        #expect(Self.device("le:u0/0>>0", buffered: false).rangeMetersPerSecondSquared == nil)
        #expect(Self.device("garbage").rangeMetersPerSecondSquared == nil)
    }

    /// The range at each scale the driver offers: as the device's own, every axis at that scale.
    @Test func eachAvailableScaleHasItsRange() {
        var device = Self.device("le:s12/16>>4", scale: 0.009576)
        device.availableScales = [0.009576, 0.019152, 0.038304, 0.114912]
        let counts = device.availableScales.map { Self.counts(device.range(atScale: $0), $0) }
        #expect(counts == [2047, 2047, 2047, 2047])
        #expect(device.range(atScale: 0.114912).map { $0 / 9.80665 > 23.98 && $0 / 9.80665 < 23.99 } == true)
        #expect(Self.device(nil).range(atScale: 0.001196) == nil)
        // With its offset, as the device's own range: the smaller side counts.
        #expect(Self.counts(Self.device("le:s16/16>>0", offset: 1000).range(atScale: 0.001196), 0.001196) == 31768)
    }

    /// What each axis's raw value is scaled by (m/s² per LSB) and offset by (LSB) when read: its
    /// own, else the shared one; without a scale, 1 (raw values as they are), without an offset, 0.
    @Test func eachAxisIsReadWithItsOwnScaleAndOffsetOrTheSharedOnes() {
        var device = Self.device("le:s16/16>>0", scale: 0.004788, offset: 10)
        #expect(device.axisScales == [0.004788, 0.004788, 0.004788] && device.axisOffsets == [10, 10, 10])
        device.yzScales = [0.002394, nil]
        device.yzOffsets = [100, -2000]
        #expect(device.axisScales == [0.004788, 0.002394, 1] && device.axisOffsets == [10, 100, -2000])
        let bare = Self.device("le:s16/16>>0", scale: nil)
        #expect(bare.axisScales == [1, 1, 1] && bare.axisOffsets == [0, 0, 0])
    }

    /// `in_accel_scale_available`: a list in any order (each once), a range as its two ends,
    /// nothing for empty text; nil (a problem to report) for anything that is no list of scales.
    @Test func availableScalesAreParsed() {
        #expect(AvailableScales.parse("0.000598 0.001196 0.002392 0.004785\n") == [0.000598, 0.001196, 0.002392, 0.004785])
        #expect(AvailableScales.parse("0.019152,0.009576 0.009576") == [0.009576, 0.019152])
        #expect(AvailableScales.parse("[0.001 0.001 0.004]") == [0.001, 0.004])
        #expect(AvailableScales.parse("") == [])
        #expect(AvailableScales.parse("2g 4g 8g") == nil)
        #expect(AvailableScales.parse("0.000598 -0.001196") == nil)
        #expect(AvailableScales.parse("0.000598 nan") == nil)
        #expect(AvailableScales.parse("[0.004 0.001 0.001]") == nil)
        // One a line or tab-separated; a range whose ends meet is its one scale.
        #expect(AvailableScales.parse("0.000598\n0.001196") == [0.000598, 0.001196])
        #expect(AvailableScales.parse("0.000598\t0.001196") == [0.000598, 0.001196])
        #expect(AvailableScales.parse("[0.001 0.001 0.001]") == [0.001])
        // A scale of 0 or inf, or a range of four numbers, is no scale to offer.
        #expect(AvailableScales.parse("0 0.000598") == nil)
        #expect(AvailableScales.parse("0.000598 inf") == nil)
        #expect(AvailableScales.parse("[0.001 0.001 0.002 0.004]") == nil)
    }

    /// A description encoded and decoded comes back the same, the offered scales with it; one
    /// encoded before `availableScales` existed (no such key) still decodes, offering none.
    @Test func aDescriptionDecodesWithOrWithoutItsAvailableScales() throws {
        var device = Self.device("le:s16/16>>0")
        device.availableScales = [0.000598, 0.001196]
        let data = try JSONEncoder().encode(device)
        #expect(try JSONDecoder().decode(AccelerometerDescription.self, from: data) == device)

        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        object["availableScales"] = nil
        let older = try JSONSerialization.data(withJSONObject: object)
        let decoded = try JSONDecoder().decode(AccelerometerDescription.self, from: older)
        #expect(decoded.availableScales.isEmpty)
        #expect(decoded.rangeMetersPerSecondSquared == device.rangeMetersPerSecondSquared)
        #expect(decoded.id == "iio:device0" && decoded.name == "lis3dh")
    }
}
