/// JSON form: one object whose keys are the stored property names. A missing key takes the
/// `medium` preset's value; an unknown key is an error naming it (so a typo is never silently
/// ignored). Decoding does not call `validate()`: call it after loading.
extension ShakeConfiguration: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case gravityTimeConstantSeconds, smoothingWindowSeconds
        case onsetAcceleration, releaseAcceleration, saturationAcceleration
        case reversalCosine, minimumReversalIntervalSeconds, maximumReversalIntervalSeconds
        case minimumHalfWaves, maximumLinearity, maximumIntervalRatio, maximumPeakIntervalSeconds
        case linearityTimeConstantSeconds
        case ongoingMotionSeconds, pauseDeviationAcceleration, ongoingMotionPeakAcceleration
        case ongoingMotionStrongHalfWaves
        case quietSeconds, refractorySeconds, maximumGapSeconds, maximumShakeSeconds
    }

    /// Accepts any key, so that unknown ones can be reported by name.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let all = try decoder.container(keyedBy: AnyKey.self)
        for key in all.allKeys where CodingKeys(stringValue: key.stringValue) == nil {
            if key.stringValue == "smoothingTimeConstantSeconds" {
                throw DecodingError.dataCorrupted(DecodingError.Context(
                    codingPath: decoder.codingPath + [key],
                    debugDescription: "'smoothingTimeConstantSeconds' was replaced by 'smoothingWindowSeconds' "
                        + "(a moving average, default 0.04 s; the old one-pole smoothing is gone): "
                        + "rename the key, or remove it to take the default"))
            }
            let known = CodingKeys.allCases.map(\.stringValue).joined(separator: ", ")
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath + [key],
                debugDescription: "unknown configuration key '\(key.stringValue)' (known keys: \(known))"))
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = ShakeConfiguration.medium
        self.init(
            gravityTimeConstantSeconds: try c.decodeIfPresent(Double.self, forKey: .gravityTimeConstantSeconds) ?? d.gravityTimeConstantSeconds,
            smoothingWindowSeconds: try c.decodeIfPresent(Double.self, forKey: .smoothingWindowSeconds) ?? d.smoothingWindowSeconds,
            onsetAcceleration: try c.decodeIfPresent(Double.self, forKey: .onsetAcceleration) ?? d.onsetAcceleration,
            releaseAcceleration: try c.decodeIfPresent(Double.self, forKey: .releaseAcceleration) ?? d.releaseAcceleration,
            saturationAcceleration: try c.decodeIfPresent(Double.self, forKey: .saturationAcceleration) ?? d.saturationAcceleration,
            reversalCosine: try c.decodeIfPresent(Double.self, forKey: .reversalCosine) ?? d.reversalCosine,
            minimumReversalIntervalSeconds: try c.decodeIfPresent(Double.self, forKey: .minimumReversalIntervalSeconds) ?? d.minimumReversalIntervalSeconds,
            maximumReversalIntervalSeconds: try c.decodeIfPresent(Double.self, forKey: .maximumReversalIntervalSeconds) ?? d.maximumReversalIntervalSeconds,
            minimumHalfWaves: try c.decodeIfPresent(Int.self, forKey: .minimumHalfWaves) ?? d.minimumHalfWaves,
            maximumLinearity: try c.decodeIfPresent(Double.self, forKey: .maximumLinearity) ?? d.maximumLinearity,
            maximumIntervalRatio: try c.decodeIfPresent(Double.self, forKey: .maximumIntervalRatio) ?? d.maximumIntervalRatio,
            maximumPeakIntervalSeconds: try c.decodeIfPresent(Double.self, forKey: .maximumPeakIntervalSeconds) ?? d.maximumPeakIntervalSeconds,
            linearityTimeConstantSeconds: try c.decodeIfPresent(Double.self, forKey: .linearityTimeConstantSeconds) ?? d.linearityTimeConstantSeconds,
            ongoingMotionSeconds: try c.decodeIfPresent(Double.self, forKey: .ongoingMotionSeconds) ?? d.ongoingMotionSeconds,
            pauseDeviationAcceleration: try c.decodeIfPresent(Double.self, forKey: .pauseDeviationAcceleration) ?? d.pauseDeviationAcceleration,
            ongoingMotionPeakAcceleration: try c.decodeIfPresent(Double.self, forKey: .ongoingMotionPeakAcceleration) ?? d.ongoingMotionPeakAcceleration,
            ongoingMotionStrongHalfWaves: try c.decodeIfPresent(Int.self, forKey: .ongoingMotionStrongHalfWaves) ?? d.ongoingMotionStrongHalfWaves,
            quietSeconds: try c.decodeIfPresent(Double.self, forKey: .quietSeconds) ?? d.quietSeconds,
            refractorySeconds: try c.decodeIfPresent(Double.self, forKey: .refractorySeconds) ?? d.refractorySeconds,
            maximumGapSeconds: try c.decodeIfPresent(Double.self, forKey: .maximumGapSeconds) ?? d.maximumGapSeconds,
            maximumShakeSeconds: try c.decodeIfPresent(Double.self, forKey: .maximumShakeSeconds) ?? d.maximumShakeSeconds)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(gravityTimeConstantSeconds, forKey: .gravityTimeConstantSeconds)
        try c.encode(smoothingWindowSeconds, forKey: .smoothingWindowSeconds)
        try c.encode(onsetAcceleration, forKey: .onsetAcceleration)
        try c.encode(releaseAcceleration, forKey: .releaseAcceleration)
        try c.encode(saturationAcceleration, forKey: .saturationAcceleration)
        try c.encode(reversalCosine, forKey: .reversalCosine)
        try c.encode(minimumReversalIntervalSeconds, forKey: .minimumReversalIntervalSeconds)
        try c.encode(maximumReversalIntervalSeconds, forKey: .maximumReversalIntervalSeconds)
        try c.encode(minimumHalfWaves, forKey: .minimumHalfWaves)
        try c.encode(maximumLinearity, forKey: .maximumLinearity)
        try c.encode(maximumIntervalRatio, forKey: .maximumIntervalRatio)
        try c.encode(maximumPeakIntervalSeconds, forKey: .maximumPeakIntervalSeconds)
        try c.encode(linearityTimeConstantSeconds, forKey: .linearityTimeConstantSeconds)
        try c.encode(ongoingMotionSeconds, forKey: .ongoingMotionSeconds)
        try c.encode(pauseDeviationAcceleration, forKey: .pauseDeviationAcceleration)
        try c.encode(ongoingMotionPeakAcceleration, forKey: .ongoingMotionPeakAcceleration)
        try c.encode(ongoingMotionStrongHalfWaves, forKey: .ongoingMotionStrongHalfWaves)
        try c.encode(quietSeconds, forKey: .quietSeconds)
        try c.encode(refractorySeconds, forKey: .refractorySeconds)
        try c.encode(maximumGapSeconds, forKey: .maximumGapSeconds)
        try c.encode(maximumShakeSeconds, forKey: .maximumShakeSeconds)
    }
}
