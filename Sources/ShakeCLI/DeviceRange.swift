import ShakeDetection
import ShakeIIO

/// A device's measuring range (``AccelerometerDescription/rangeMetersPerSecondSquared``) in the
/// words `devices`, `live` and `record` use for it, and whether it is too narrow for the detector.
///
/// During ongoing motion (a walk, a run) a shake needs strokes of
/// `ongoingMotionPeakAcceleration` (25 m/s² with medium); a sensor set to ±2 g clips every axis at
/// 19.6 m/s², so such a shake whose strokes lie along one axis across gravity is never found on
/// it, and others only when their strokes pass the peak over two axes (a diagonal one) or against
/// gravity. Shakes after a pause need no such strokes.
enum DeviceRange {
    /// A peak over 16 g, the widest range of common phone and board accelerometers, is taken for
    /// the configuration's "no shake during ongoing motion" (`ongoingMotionPeakAcceleration`
    /// `.infinity`, or 1e6 in JSON): no range helps then, and none is warned about.
    static let widestCommonRange = 16 * standardGravity

    /// `±2 g (19.6 m/s²)`.
    static func text(_ range: Double) -> String {
        "\(gText(range)) (\(DeviceLevelCheck.number(range)) m/s²)"
    }

    /// `±2 g`: two significant figures (32767 · 0.000598 m/s², 1.998 g, is the ±2 g setting).
    static func gText(_ range: Double) -> String {
        "±\(DeviceLevelCheck.number(range / standardGravity, figures: 2)) g"
    }

    /// The peak, m/s², that `configuration` needs of a shake's strokes during ongoing motion,
    /// when a device's range can stand in the way: nil with the rule off (`ongoingMotionSeconds`
    /// 0) or a peak no range reaches (``widestCommonRange``).
    static func neededPeak(_ configuration: ShakeConfiguration) -> Double? {
        let peak = configuration.ongoingMotionPeakAcceleration
        guard configuration.ongoingMotionSeconds > 0, peak <= widestCommonRange else { return nil }
        return peak
    }

    /// The ranges the device offers that are wider than its own: (scale, range), narrowest first.
    static func wider(_ device: AccelerometerDescription, than range: Double) -> [(scale: Double, range: Double)] {
        device.availableScales.compactMap { scale in
            device.range(atScale: scale).flatMap { $0 > range * 1.001 ? (scale, $0) : nil }
        }.sorted { $0.range < $1.range }
    }

    /// `devices`'s range line's value: `±2 g (19.6 m/s²) (available: ±2 g at scale 0.000598, ...)`.
    static func listing(_ device: AccelerometerDescription, valuesUnknown: Bool) -> String {
        var text: String
        let range = device.rangeMetersPerSecondSquared
        if range == 0, device.axisScales.contains(0) {
            text = "none: \(zeroScale)"
        } else if range == 0 {
            text = "none both ways: an axis reads no negative acceleration (\(unsignedWithoutOffset))"
        } else if let range {
            text = self.text(range)
            if let peak = neededPeak(.medium), range < peak {
                text += ", under the \(DeviceLevelCheck.number(peak)) m/s² a shake during a walk needs (medium)"
            }
        } else if valuesUnknown {
            text = "unknown (see the problem above)"
        } else if device.scale == nil {
            text = "unknown (no in_accel_scale)"
        } else {
            text = "unknown (no scan format: a polled device does not say its raw values' bits)"
        }
        if let problem = device.availableScalesProblem {
            text += " (available: unknown: \(problem))"
        } else if !device.availableScales.isEmpty && device.availableScales.allSatisfy({ device.range(atScale: $0) == nil }) {
            // A polled device: the scales, whose ranges its unknown bits hide as well.
            text += " (available scales: " + device.availableScales.map { "\($0)" }.joined(separator: ", ")
                + " m/s² per LSB; their ranges unknown too)"
        } else if !device.availableScales.isEmpty {
            text += " (available: " + device.availableScales.map { scale in
                (device.range(atScale: scale).map(gText) ?? "unknown") + " at \(scale == device.availableScales.first ? "scale " : "")\(scale)"
            }.joined(separator: ", ") + ")"
        }
        return text
    }

    /// Why a range is none because a scale is 0: every value of that axis reads 0 m/s².
    static let zeroScale = "a scale (in_accel_scale, or an axis's own) is 0, so that axis reads 0 m/s² whatever the sensor measures"

    /// Why a range is none both ways: no driver known reports so, but the arithmetic allows it.
    static let unsignedWithoutOffset = "its raw values are unsigned, and an axis has no offset (in_accel_offset) to "
        + "bring them below 0"

    /// The warning `live` and `record` print once, when the device's range is known and narrower
    /// than the strokes `configuration` needs of a shake during ongoing motion (or none both ways:
    /// unsigned raw values without an offset, whatever the configuration); nil otherwise.
    /// `configurationName`: `the medium preset`. `recording`: `record`'s words (the file keeps
    /// the clipped strokes). `uri`: the context, for where `in_accel_scale` is.
    static func warning(_ device: AccelerometerDescription, configuration: ShakeConfiguration,
                        configurationName: String, recording: Bool, uri: String) -> String? {
        guard let range = device.rangeMetersPerSecondSquared else { return nil }
        if range == 0, device.axisScales.contains(0) {
            return "Warning: \(device.displayName): \(zeroScale); its driver should give the sensor's scale (ShakeKit "
                + "reads the values as they are).\n"
        }
        if range == 0 {
            return "Warning: \(device.displayName) reads no negative acceleration on an axis: \(unsignedWithoutOffset). "
                + "Such an axis reads 0 for every stroke below 0, so shakes are rarely found; its driver should give the "
                + "offset (ShakeKit reads the values as they are).\n"
        }
        guard let peak = neededPeak(configuration), range < peak else { return nil }
        let peakText = "\(DeviceLevelCheck.number(peak)) m/s²"
        var text = "Warning: \(device.displayName) measures \(self.text(range)) per axis"
        if recording {
            text += ": strokes beyond it are clipped in the recording, and a shake during a walk or run, which needs "
                + "strokes of \(peakText) with \(configurationName), is often missed in it (always when its strokes lie along "
                + "one axis across gravity); a shake after a pause is still found."
        } else {
            text += ", under the \(peakText) that \(configurationName) needs of a shake's strokes during a walk or run: "
                + "strokes are clipped, so a shake during a walk or run is often missed (always when its strokes lie along one "
                + "axis across gravity); a shake after a pause is still found."
        }
        let files = "/sys/bus/iio/devices/\(device.id)/"
            + (device.yzScales == nil ? "in_accel_scale" : "in_accel_x_scale, in_accel_y_scale and in_accel_z_scale")
            + (uri.hasPrefix("local:") ? "" : " on the machine it is on")
        let wider = wider(device, than: range)
        if let example = wider.first(where: { $0.range >= peak }) ?? wider.last {
            let offered = wider.map { gText($0.range) }
            let list = offered.count == 1 ? offered[0] : offered.dropLast().joined(separator: ", ") + " and " + offered.last!
            text += " It offers \(list): write the scale of one to \(files) (as root), e.g. \(example.scale) for "
                + "\(gText(example.range)), then start again."
        } else if let problem = device.availableScalesProblem {
            text += " Its in_accel_scale_available cannot be read (\(problem)); a wider range its driver offers is set "
                + "by writing its scale to \(files)."
        } else if device.availableScales.isEmpty {
            text += " It lists no other ranges (no in_accel_scale_available); a wider one its driver offers is set by "
                + "writing its scale to \(files)."
        } else {
            text += " It offers nothing wider (in_accel_scale_available: "
                + device.availableScales.map { "\($0)" }.joined(separator: " ") + ")."
        }
        return text + "\n"
    }
}
