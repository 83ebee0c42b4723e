import ShakeDetection
import ShakeIIO
import Testing
@testable import ShakeCLI

/// What `live` and `record` say of a device whose measuring range is under the strokes a shake
/// needs during a walk (the emulator tests check a ±2 g device with the ranges it offers end to
/// end; these the other cases), and `devices`'s range line.
@Suite struct DeviceRangeTests {
    /// A lis3dh-like device: 12 bits, at ±2 g unless told (0.009576 m/s² per LSB).
    static func device(scale: Double? = 0.009576, offered: [Double] = [], format: String? = "le:s12/16>>4")
        -> AccelerometerDescription {
        AccelerometerDescription(id: "iio:device1", name: "lis3dh", scale: scale, availableScales: offered,
                                 isBufferCapable: true, scanFormat: format)
    }

    static func warning(_ device: AccelerometerDescription, _ configuration: ShakeConfiguration = .medium,
                        uri: String = "local:") -> String? {
        DeviceRange.warning(device, configuration: configuration, configurationName: "the medium preset",
                            recording: false, uri: uri)
    }

    static let start = "Warning: lis3dh measures ±2 g (19.6 m/s²) per axis, under the 25 m/s² that the medium preset "
        + "needs of a shake's strokes during a walk or run: strokes are clipped, so a shake during a walk or run is often "
        + "missed (always when its strokes lie along one axis across gravity); a shake after a pause is still found."

    /// The ranges offered are named, and the example is the narrowest that is wide enough.
    @Test func theWarningNamesTheWiderRangesAndOneWideEnough() {
        let offered = Self.device(offered: [0.009576, 0.019152, 0.038304, 0.114912])
        #expect(Self.warning(offered) == Self.start + " It offers ±4 g, ±8 g and ±24 g: write the scale of one to "
            + "/sys/bus/iio/devices/iio:device1/in_accel_scale (as root), e.g. 0.019152 for ±4 g, then start again.\n")
        // Over iiod, the file is on the other machine.
        #expect(Self.warning(offered, uri: "ip:192.168.2.1")?.contains(
            "/sys/bus/iio/devices/iio:device1/in_accel_scale on the machine it is on (as root)") == true)
    }

    /// A single wider range is named alone, without a list's "and".
    @Test func aSingleWiderRangeIsNamedAlone() {
        let offered = Self.device(offered: [0.009576, 0.019152])
        #expect(Self.warning(offered) == Self.start + " It offers ±4 g: write the scale of one to "
            + "/sys/bus/iio/devices/iio:device1/in_accel_scale (as root), e.g. 0.019152 for ±4 g, then start again.\n")
    }

    /// No list of ranges, or nothing wider in it: said so, with where a wider one would be set.
    @Test func withoutWiderRangesTheWarningSaysSo() {
        #expect(Self.warning(Self.device()) == Self.start + " It lists no other ranges (no in_accel_scale_available); "
            + "a wider one its driver offers is set by writing its scale to /sys/bus/iio/devices/iio:device1/in_accel_scale.\n")
        #expect(Self.warning(Self.device(offered: [0.004788, 0.009576])) == Self.start
            + " It offers nothing wider (in_accel_scale_available: 0.004788 0.009576).\n")
    }

    /// No warning when the range is enough (±4 g), unknown (no scale, a polled device), or the
    /// configuration does not ask for strong strokes during a walk (rule off, or no shake then).
    @Test func noWarningWhenTheRangeIsEnoughUnknownOrNotNeeded() {
        #expect(Self.warning(Self.device(scale: 0.019152)) == nil)
        #expect(Self.warning(Self.device(scale: nil)) == nil)
        #expect(Self.warning(Self.device(format: nil)) == nil)
        var off = ShakeConfiguration.medium
        off.ongoingMotionSeconds = 0
        #expect(Self.warning(Self.device(), off) == nil)
        var never = ShakeConfiguration.medium
        never.ongoingMotionPeakAcceleration = .infinity
        #expect(Self.warning(Self.device(), never) == nil)
        never.ongoingMotionPeakAcceleration = 1e6
        #expect(Self.warning(Self.device(), never) == nil)
        // The light preset asks 20 m/s²: ±2 g (19.6) is still under it.
        #expect(Self.warning(Self.device(), .light) != nil)
    }

    /// `devices`'s range line: ±16 g says nothing of walks; a range unknown says why.
    @Test func theListingSaysTheRangeOrWhyItIsUnknown() {
        #expect(DeviceRange.listing(Self.device(scale: 0.076608), valuesUnknown: false) == "±16 g (157 m/s²)")
        #expect(DeviceRange.listing(Self.device(scale: nil), valuesUnknown: false) == "unknown (no in_accel_scale)")
        #expect(DeviceRange.listing(Self.device(scale: nil), valuesUnknown: true) == "unknown (see the problem above)")
        // A polled device (no scan format) offering scales: their ranges are unknown as well, said once.
        #expect(DeviceRange.listing(Self.device(offered: [0.009576, 0.019152], format: nil), valuesUnknown: false)
            == "unknown (no scan format: a polled device does not say its raw values' bits) (available scales: "
            + "0.009576, 0.019152 m/s² per LSB; their ranges unknown too)")
        // A ±2 g device offering wider ranges: each named with its scale.
        #expect(DeviceRange.listing(Self.device(offered: [0.009576, 0.019152]), valuesUnknown: false)
            == "±2 g (19.6 m/s²), under the 25 m/s² a shake during a walk needs (medium) (available: ±2 g at scale "
            + "0.009576, ±4 g at 0.019152)")
    }

    /// Unsigned raw values without an offset (no driver known does so, the arithmetic allows it):
    /// no negative acceleration can be read. The listing says that, not "±0 g" under the peak a
    /// walk needs (as it did); `live` and `record` warn of it whatever the configuration.
    @Test func unsignedValuesWithoutAnOffsetAreSaidToReadNothingNegative() {
        let unsigned = Self.device(scale: 0.000598, format: "le:u16/16>>0")
        #expect(DeviceRange.listing(unsigned, valuesUnknown: false) == "none both ways: an axis reads no negative "
            + "acceleration (its raw values are unsigned, and an axis has no offset (in_accel_offset) to bring them below 0)")
        var off = ShakeConfiguration.medium
        off.ongoingMotionSeconds = 0
        for configuration in [ShakeConfiguration.medium, off] {
            #expect(Self.warning(unsigned, configuration) == "Warning: lis3dh reads no negative acceleration on an axis: "
                + "its raw values are unsigned, and an axis has no offset (in_accel_offset) to bring them below 0. Such an "
                + "axis reads 0 for every stroke below 0, so shakes are rarely found; its driver should give the offset "
                + "(ShakeKit reads the values as they are).\n")
        }
    }

    /// A scale of 0 with signed values: the range is none because every value reads 0 m/s², and
    /// the listing and the warning say so (they blamed unsigned values and a missing offset).
    @Test func aZeroScaleIsSaidToReadNothing() {
        let zero = Self.device(scale: 0, format: "le:s16/16>>0")
        #expect(DeviceRange.listing(zero, valuesUnknown: false)
            == "none: a scale (in_accel_scale, or an axis's own) is 0, so that axis reads 0 m/s² whatever the sensor measures")
        #expect(Self.warning(zero, .medium) == "Warning: lis3dh: a scale (in_accel_scale, or an axis's own) is 0, so that axis "
            + "reads 0 m/s² whatever the sensor measures; its driver should give the sensor's scale (ShakeKit reads the values "
            + "as they are).\n")
    }
}
