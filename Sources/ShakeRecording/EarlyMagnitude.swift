import ShakeDetection

/// The mean |a| over a recording's first samples, m/s²: what tells a recording whose
/// acceleration has gravity taken out.
///
/// Exports of a linear accelerometer hold acceleration without gravity: Sensor Logger's
/// `Accelerometer.csv`, phyphox's "Acceleration without g", Physics Toolbox's linear accelerometer
/// (`time,ax,ay,az,aT`); so does a sensor in g read as m/s² while it moves (at rest that is an
/// error: see `CSVImportOptions`). They are read as they are: the detector removes gravity
/// itself and still finds most shakes in them, but not all (in `dev` with gravity filtered out
/// beforehand, 30 of 36 rather than 36), so a tool should say so and ask for the export with
/// gravity. `RecordingReader.earlyMagnitude` and `RecordingReplay.Result.earlyMagnitude` keep
/// one.
///
/// It is `SampleStreamCheck`'s rule for a stream (`accelerationHoldsNoGravity`), with the same
/// sample count and limit, made to judge a recording too short for the stream check (from
/// `fewestSamples` on). A shake in the first samples raises the mean over the limit, so a file
/// known by its header and name to hold acceleration without gravity (Sensor Logger's
/// `Accelerometer.csv`) is told by those as well: `gravityFreeExport`.
public struct EarlyMagnitude: Sendable, Hashable {
    /// Samples the mean is taken over: the first 64 (0.64 s at 100 Hz).
    public static let samples = SampleStreamCheck.samplesChecked
    /// Under this mean, m/s², the acceleration looks like it has no gravity in it: half of
    /// standard gravity, 4.9 m/s². A device held, carried or lying still reads about 9.8 m/s² on
    /// average, gravity included (9.1 at least over the first 64 samples of every recording in
    /// `dev` and `Fixtures`).
    public static let gravityFreeMean = SampleStreamCheck.gravityFreeMeanMagnitude
    /// Fewer samples than this tell nothing (`looksGravityFree` is false).
    public static let fewestSamples = 16

    /// The sum of |a| over the samples counted, m/s².
    @usableFromInline var sum = 0.0
    @usableFromInline var counted = 0
    /// The samples counted: those added so far, up to `EarlyMagnitude.samples`.
    public var count: Int { counted }

    /// The export the recording is, by its header and file name, when that export holds
    /// acceleration with gravity taken out, whatever its values: "Sensor Logger's
    /// Accelerometer.csv" (`time,seconds_elapsed,z,y,x` in a file named `Accelerometer.csv`,
    /// `Accelerometer (1).csv`, …). Set by `RecordingReader` and `RecordingReplay`; nil for any
    /// other file, and for samples counted from memory.
    public var gravityFreeExport: String?

    public init() {}

    /// The first `EarlyMagnitude.samples` of `samples` counted (a recording read into memory).
    public init(_ samples: some Sequence<Sample>) {
        for sample in samples.prefix(Self.samples) { add(sample) }
    }

    /// Counts `sample` while fewer than `EarlyMagnitude.samples` were.
    @inlinable @inline(__always)
    public mutating func add(_ sample: Sample) {
        guard counted < Self.samples else { return }  // predicted after the first samples
        sum += sample.magnitude
        counted += 1
    }

    /// The mean |a| of the samples counted, m/s²; nil before the first.
    public var mean: Double? { count == 0 ? nil : sum / Double(count) }

    /// Whether the acceleration looks like it holds no gravity: `mean` is under
    /// `gravityFreeMean` over at least `fewestSamples` samples (all `samples` once that many were
    /// read), or `gravityFreeExport` names the export, whatever the mean.
    public var looksGravityFree: Bool {
        if gravityFreeExport != nil { return true }
        return meanLooksGravityFree
    }

    /// Whether `mean` alone says the acceleration holds no gravity: under `gravityFreeMean` over
    /// at least `fewestSamples` samples (all `samples` once that many were read).
    public var meanLooksGravityFree: Bool {
        guard count >= Self.fewestSamples, let mean else { return false }
        return mean < Self.gravityFreeMean
    }
}
