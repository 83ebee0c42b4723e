/// What the detector decided on one sample beyond its events: the half-wave that ended, why a
/// chain long enough to be a shake did not begin one, or what its rules measured when one began.
/// `ShakeDetector.process(_:explanation:)` fills it in, for tools that explain a missed or
/// unexpected shake (`shake replay --explain`, `shake evaluate --list`, `shake plot`).
/// Times are in seconds, accelerations in m/s² with gravity removed.
public struct ShakeExplanation: Sendable, Equatable {
    /// The half-wave that ended on this sample, if any.
    public var halfWave: HalfWave?
    /// Why a shake did not begin on this sample although the chain of linked half-waves was long
    /// enough (`minimumHalfWaves`), if that happened.
    public var refusal: Refusal?
    /// What step 4's rules measured when a shake began on this sample, if one did.
    public var began: Began?

    public init(halfWave: HalfWave? = nil, refusal: Refusal? = nil, began: Began? = nil) {
        self.halfWave = halfWave
        self.refusal = refusal
        self.began = began
    }

    /// The values step 4's rules measured when a shake began, each within its limit: how close
    /// the motion came to being refused.
    public struct Began: Sendable, Equatable {
        /// The sample's time (the `began` event's), s.
        public var time: Double
        /// Start of the chain's first half-wave, s.
        public var chainStartTime: Double
        /// Linked half-waves in the chain, the open one included once it has linked.
        public var chainHalfWaves: Int
        /// `√(λ₂/λ₁)` (limit `maximumLinearity`).
        public var linearity: Double
        /// The longest interval between the chain's peaks over the shortest, of its last 8
        /// (limit `maximumIntervalRatio`).
        public var intervalRatio: Double
        /// The longest interval between the chain's peaks, of its last 8, s (the open half-wave's to its peak so
        /// far once it has linked); over `intervalRatio`, the shortest.
        public var longestIntervalSeconds: Double
        /// Whether the device was in ongoing motion (then `strongHalfWaves` of the last
        /// `minimumHalfWaves` had to reach `ongoingMotionPeakAcceleration`).
        public var ongoingMotion: Bool
        /// Of the last `minimumHalfWaves` half-waves, how many reached
        /// `ongoingMotionPeakAcceleration`.
        public var strongHalfWaves: Int

        public init(time: Double, chainStartTime: Double, chainHalfWaves: Int, linearity: Double,
                    intervalRatio: Double, longestIntervalSeconds: Double, ongoingMotion: Bool,
                    strongHalfWaves: Int) {
            self.time = time
            self.chainStartTime = chainStartTime
            self.chainHalfWaves = chainHalfWaves
            self.linearity = linearity
            self.intervalRatio = intervalRatio
            self.longestIntervalSeconds = longestIntervalSeconds
            self.ongoingMotion = ongoingMotion
            self.strongHalfWaves = strongHalfWaves
        }
    }

    /// A half-wave that has ended (step 2 of `ShakeDetector`'s rule).
    public struct HalfWave: Sendable, Equatable {
        /// When `|l|` first passed the onset (or the release threshold on a saturated sample), s.
        public var startTime: Double
        /// When its largest `|l|` was reached, placed between samples, s.
        public var peakTime: Double
        /// Its largest `|l|`, m/s².
        public var peakAcceleration: Double
        /// How many linked half-waves its chain holds with it (1 when it starts a new chain).
        public var chainHalfWaves: Int
        /// Whether it linked to the half-wave before it, and if not, why.
        public var link: Link

        public init(startTime: Double, peakTime: Double, peakAcceleration: Double, chainHalfWaves: Int, link: Link) {
            self.startTime = startTime
            self.peakTime = peakTime
            self.peakAcceleration = peakAcceleration
            self.chainHalfWaves = chainHalfWaves
            self.link = link
        }
    }

    /// A half-wave's relation to the one before it (step 3). The cosine is between the two peak
    /// vectors and the interval between the two peak times, both as finally placed.
    public enum Link: Sendable, Equatable {
        /// It reversed the one before: the chain grew.
        case linked(cosine: Double, intervalSeconds: Double)
        /// It came within the allowed interval but did not point against the one before
        /// (`reversalCosine`): it starts a new chain.
        case notOpposite(cosine: Double, intervalSeconds: Double)
        /// Its peak came sooner than `minimumReversalIntervalSeconds` or later than
        /// `maximumReversalIntervalSeconds` after the one before: it starts a new chain.
        case outsideInterval(intervalSeconds: Double)
        /// There was no half-wave before it to link to (the first since the stream started or
        /// restarted, or the first after a shake): it starts a new chain.
        case nothingBefore
    }

    /// Why a chain of `minimumHalfWaves` or more linked half-waves did not begin a shake (the
    /// first of step 4's rules that failed, in the order the detector tests them).
    public struct Refusal: Sendable, Equatable {
        /// The sample's time, s.
        public var time: Double
        /// Start of the chain's first half-wave, s.
        public var chainStartTime: Double
        /// Linked half-waves in the chain, the open one included once it has linked.
        public var chainHalfWaves: Int
        public var reason: Reason

        public init(time: Double, chainStartTime: Double, chainHalfWaves: Int, reason: Reason) {
            self.time = time
            self.chainStartTime = chainStartTime
            self.chainHalfWaves = chainHalfWaves
            self.reason = reason
        }
    }

    /// One of step 4's rules, with the value measured and the configured limit.
    public enum Reason: Sendable, Equatable {
        /// A shake was cancelled as too long; the motion must pause for `quietSeconds` first.
        case pauseNeeded
        /// Within `refractorySeconds` of the last `ended`; shakes may begin again from `until`, s.
        case refractory(until: Double)
        /// The longest peak-to-peak interval is more than `maximumIntervalRatio` times the
        /// shortest.
        case unsteadyRhythm(ratio: Double, limit: Double)
        /// One of the last `minimumHalfWaves` half-waves peaked more than
        /// `maximumPeakIntervalSeconds` after the one before it (`intervalSeconds`: the latest
        /// such interval).
        case slowStroke(intervalSeconds: Double, limit: Double)
        /// The motion is not back and forth along a line: `√(λ₂/λ₁)` above `maximumLinearity`.
        case notStraight(linearity: Double, limit: Double)
        /// During ongoing motion, fewer than `ongoingMotionStrongHalfWaves` of the last
        /// `minimumHalfWaves` half-waves peaked at `ongoingMotionPeakAcceleration` or more.
        case weakDuringOngoingMotion(strongHalfWaves: Int, needed: Int)
        /// The chain has only `minimumHalfWaves` half-waves, and its peaks are more than
        /// `shortChainPeakIntervalSeconds` apart (`longestIntervalSeconds`: the longest interval) and
        /// its linearity is above `shortChainLinearity`: it needs one half-wave more.
        case shortChainNeedsAnotherHalfWave(longestIntervalSeconds: Double, linearity: Double)

        /// Whether `other` is the same rule, whatever the values measured.
        public func isSameRule(as other: Reason) -> Bool {
            switch (self, other) {
            case (.pauseNeeded, .pauseNeeded), (.refractory, .refractory), (.unsteadyRhythm, .unsteadyRhythm),
                 (.slowStroke, .slowStroke), (.notStraight, .notStraight),
                 (.weakDuringOngoingMotion, .weakDuringOngoingMotion),
                 (.shortChainNeedsAnotherHalfWave, .shortChainNeedsAnotherHalfWave):
                return true
            case (.pauseNeeded, _), (.refractory, _), (.unsteadyRhythm, _), (.slowStroke, _), (.notStraight, _),
                 (.weakDuringOngoingMotion, _), (.shortChainNeedsAnotherHalfWave, _):
                return false
            }
        }
    }
}
