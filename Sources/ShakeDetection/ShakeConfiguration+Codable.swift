/// JSON form: one object whose keys are the stored property names. A missing key takes the
/// `medium` preset's value; an unknown key is an error naming it (so a typo is never silently
/// ignored), and so is `null` (`DecodingError.valueNotFound`, saying to give a value or leave the
/// key out). Decoding does not call `validate()`: call it after decoding (`ConfigurationFile`
/// does). `+infinity`, which `saturationAcceleration` and `ongoingMotionPeakAcceleration` may
/// hold and JSON cannot, is encoded as `encodedInfinity` (10⁶ m/s²), which decodes to a detector
/// that gives the same events, so that `JSONEncoder` can write every valid configuration whose
/// thresholds are under 10⁶ m/s² (every one that can fire: samples beyond 10⁴ m/s² are ignored;
/// with `onsetAcceleration` at 10⁶ or more, the decoded `ongoingMotionPeakAcceleration` fails
/// validation).
extension ShakeConfiguration: Codable {
    /// What `encode(to:)` writes for `+infinity`: 10⁶ m/s². No raw axis gets that far (samples
    /// beyond `ShakeDetector.implausibleAcceleration`, 10⁴ m/s², are ignored) and no peak of
    /// linear acceleration either, so a detector behaves the same with it as with infinity.
    public static let encodedInfinity = 1e6

    enum CodingKeys: String, CodingKey, CaseIterable {
        case gravityTimeConstantSeconds, smoothingWindowSeconds
        case onsetAcceleration, releaseAcceleration, saturationAcceleration
        case reversalCosine, minimumReversalIntervalSeconds, maximumReversalIntervalSeconds
        case minimumHalfWaves, maximumLinearity, maximumIntervalRatio, maximumPeakIntervalSeconds
        case linearityTimeConstantSeconds, shortChainPeakIntervalSeconds, shortChainLinearity
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

    /// Levenshtein distance between `a` and `b`, counted in characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(1, b.count) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
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
            let names = CodingKeys.allCases.map(\.stringValue)
            // A typo or a letter's case: the nearest key, when it is near (3 edits at most).
            let nearest = names.map { ($0, Self.editDistance($0.lowercased(), key.stringValue.lowercased())) }
                .min { $0.1 < $1.1 }
            let suggestion = nearest.flatMap { $0.1 <= 3 ? ": did you mean '\($0.0)'?" : nil } ?? ""
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath + [key],
                debugDescription: "unknown configuration key '\(key.stringValue)'\(suggestion) (known keys: "
                    + names.joined(separator: ", ") + ")"))
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = ShakeConfiguration.medium
        /// The value of `key`, or `medium` (`d`'s) when the key is left out; `null` is an error.
        func value<Value: Decodable>(_ key: CodingKeys, _ medium: Value) throws -> Value {
            guard c.contains(key) else { return medium }
            if try c.decodeNil(forKey: key) {
                let kind = Value.self == Int.self ? "a whole number" : "a number"
                throw DecodingError.valueNotFound(Value.self, DecodingError.Context(
                    codingPath: c.codingPath + [key],
                    debugDescription: "give \(kind), or leave the key out for the medium value (\(medium))"))
            }
            return try c.decode(Value.self, forKey: key)
        }
        self.init(
            gravityTimeConstantSeconds: try value(.gravityTimeConstantSeconds, d.gravityTimeConstantSeconds),
            smoothingWindowSeconds: try value(.smoothingWindowSeconds, d.smoothingWindowSeconds),
            onsetAcceleration: try value(.onsetAcceleration, d.onsetAcceleration),
            releaseAcceleration: try value(.releaseAcceleration, d.releaseAcceleration),
            saturationAcceleration: try value(.saturationAcceleration, d.saturationAcceleration),
            reversalCosine: try value(.reversalCosine, d.reversalCosine),
            minimumReversalIntervalSeconds: try value(.minimumReversalIntervalSeconds, d.minimumReversalIntervalSeconds),
            maximumReversalIntervalSeconds: try value(.maximumReversalIntervalSeconds, d.maximumReversalIntervalSeconds),
            minimumHalfWaves: try value(.minimumHalfWaves, d.minimumHalfWaves),
            maximumLinearity: try value(.maximumLinearity, d.maximumLinearity),
            maximumIntervalRatio: try value(.maximumIntervalRatio, d.maximumIntervalRatio),
            maximumPeakIntervalSeconds: try value(.maximumPeakIntervalSeconds, d.maximumPeakIntervalSeconds),
            linearityTimeConstantSeconds: try value(.linearityTimeConstantSeconds, d.linearityTimeConstantSeconds),
            shortChainPeakIntervalSeconds: try value(.shortChainPeakIntervalSeconds, d.shortChainPeakIntervalSeconds),
            shortChainLinearity: try value(.shortChainLinearity, d.shortChainLinearity),
            ongoingMotionSeconds: try value(.ongoingMotionSeconds, d.ongoingMotionSeconds),
            pauseDeviationAcceleration: try value(.pauseDeviationAcceleration, d.pauseDeviationAcceleration),
            ongoingMotionPeakAcceleration: try value(.ongoingMotionPeakAcceleration, d.ongoingMotionPeakAcceleration),
            ongoingMotionStrongHalfWaves: try value(.ongoingMotionStrongHalfWaves, d.ongoingMotionStrongHalfWaves),
            quietSeconds: try value(.quietSeconds, d.quietSeconds),
            refractorySeconds: try value(.refractorySeconds, d.refractorySeconds),
            maximumGapSeconds: try value(.maximumGapSeconds, d.maximumGapSeconds),
            maximumShakeSeconds: try value(.maximumShakeSeconds, d.maximumShakeSeconds))
    }

    /// `value`, or `encodedInfinity` for `+infinity`.
    private static func encodable(_ value: Double) -> Double {
        value == .infinity ? encodedInfinity : value
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(gravityTimeConstantSeconds, forKey: .gravityTimeConstantSeconds)
        try c.encode(smoothingWindowSeconds, forKey: .smoothingWindowSeconds)
        try c.encode(onsetAcceleration, forKey: .onsetAcceleration)
        try c.encode(releaseAcceleration, forKey: .releaseAcceleration)
        try c.encode(Self.encodable(saturationAcceleration), forKey: .saturationAcceleration)
        try c.encode(reversalCosine, forKey: .reversalCosine)
        try c.encode(minimumReversalIntervalSeconds, forKey: .minimumReversalIntervalSeconds)
        try c.encode(maximumReversalIntervalSeconds, forKey: .maximumReversalIntervalSeconds)
        try c.encode(minimumHalfWaves, forKey: .minimumHalfWaves)
        try c.encode(maximumLinearity, forKey: .maximumLinearity)
        try c.encode(maximumIntervalRatio, forKey: .maximumIntervalRatio)
        try c.encode(maximumPeakIntervalSeconds, forKey: .maximumPeakIntervalSeconds)
        try c.encode(linearityTimeConstantSeconds, forKey: .linearityTimeConstantSeconds)
        try c.encode(shortChainPeakIntervalSeconds, forKey: .shortChainPeakIntervalSeconds)
        try c.encode(shortChainLinearity, forKey: .shortChainLinearity)
        try c.encode(ongoingMotionSeconds, forKey: .ongoingMotionSeconds)
        try c.encode(pauseDeviationAcceleration, forKey: .pauseDeviationAcceleration)
        try c.encode(Self.encodable(ongoingMotionPeakAcceleration), forKey: .ongoingMotionPeakAcceleration)
        try c.encode(ongoingMotionStrongHalfWaves, forKey: .ongoingMotionStrongHalfWaves)
        try c.encode(quietSeconds, forKey: .quietSeconds)
        try c.encode(refractorySeconds, forKey: .refractorySeconds)
        try c.encode(maximumGapSeconds, forKey: .maximumGapSeconds)
        try c.encode(maximumShakeSeconds, forKey: .maximumShakeSeconds)
    }
}
