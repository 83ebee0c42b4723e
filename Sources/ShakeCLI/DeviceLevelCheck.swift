#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ShakeDetection
import ShakeIIO
import ShakeRecording

/// `live` and `record`: whether a device's first samples, at rest, read gravity as 9.8 m/s².
/// A driver's wrong `in_accel_scale` or `in_accel_offset` (or a sensor that reads nothing)
/// otherwise shows only as shakes never found, or found on every bump.
struct DeviceLevelCheck {
    private var check = SampleStreamCheck(checkingTime: false)
    private var warned = false

    /// A new connection (the device may have been reset): its first samples are checked again,
    /// but a run warns once.
    mutating func restart() {
        check = SampleStreamCheck(checkingTime: false)
    }

    /// Checks one sample (with the device's mount matrix applied: |a| is the same); returns the
    /// warning line, with its line end, the one time it is found.
    mutating func add(_ sample: Sample, device: AccelerometerDescription) -> String? {
        guard !warned, let problem = check.add(sample) else { return nil }
        warned = true
        // In g, in mg or off scale: for a device, all three are a wrong scale or offset.
        if let magnitude = problem.restingMagnitude { return Self.warning(device: device, magnitude: magnitude) }
        // Moving, but far too weak for gravity to be in it: the same fault, seen in motion.
        if case .accelerationHoldsNoGravity(let mean) = problem { return Self.warning(device: device, movingMean: mean) }
        return nil
    }

    private static func attributes(_ device: AccelerometerDescription) -> String {
        "in_accel_scale (\(device.scale.map { number($0) } ?? "not given")) and in_accel_offset "
            + "(\(device.offset.map { number($0) } ?? "not given"))"
    }

    /// The words for a device whose |a|, moving, averaged `movingMean` m/s² over its first
    /// samples: under half of gravity, which any motion but a fall keeps in the mean.
    static func warning(device: AccelerometerDescription, movingMean mean: Double) -> String {
        "Warning: \(device.displayName) reads |a| averaging \(number(mean)) m/s² over its first "
            + "\(SampleStreamCheck.samplesChecked) samples, where with gravity in it the average is 9.8 m/s² or more: "
            + "its readings are too small or hold no gravity. Check \(attributes(device)). Until they are right, "
            + "shakes are missed.\n"
    }

    /// The words for a device whose |a| held still at `magnitude`, m/s².
    static func warning(device: AccelerometerDescription, magnitude: Double) -> String {
        let attributes = attributes(device)
        let start = "Warning: \(device.displayName) reads |a| near \(number(magnitude)) m/s² while still, where "
            + "gravity alone is 9.8 m/s²"
        guard magnitude >= SampleStreamCheck.noGravityMagnitude else {
            return start + ": it reads no gravity (a sensor that reads nothing, or an offset that cancels it); check "
                + "\(attributes). Until they are right, shakes are misjudged.\n"
        }
        let ratio = magnitude / standardGravity
        let factor = ratio < 1 ? "\(number(1 / ratio, figures: 2)) times too small" : "\(number(ratio, figures: 2)) times too large"
        // With no offset, the scale that would read 9.8 m/s² here.
        var suggestion = ""
        if let scale = device.scale, (device.offset ?? 0) == 0 {
            suggestion = "; a scale of about \(number(scale / ratio)) would read 9.8"
        }
        return start + ": its readings are about \(factor). Check \(attributes)\(suggestion). Until they are "
            + "right, shakes are misjudged.\n"
    }

    /// `figures` significant figures, trailing zeros dropped: 0.00479, 19.6, 2, 100.
    static func number(_ value: Double, figures: Int = 3) -> String {
        guard value.isFinite, value != 0 else { return value == 0 ? "0" : "\(value)" }
        let decimals = max(0, figures - 1 - Int(log10(value.magnitude).rounded(.down)))
        var text = FixedDecimals.format(value, decimals: decimals)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }
}
