#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A small, fully specified pseudo-random generator for the synthesizer: xoshiro256** seeded
/// through SplitMix64 (both public-domain algorithms by Vigna and Blackman).
///
/// The output depends only on the seed and the stream number, never on the platform or on
/// Foundation's random sources, so the same seed gives bit-identical recordings everywhere
/// (given a libm whose `sin`, `cos`, `log` and `exp` round the same way; glibc's do).
struct SynthRandom: Sendable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// A generator for one independent stream of `seed`.
    ///
    /// Streams keep unrelated draws apart: the motion of a script does not change when the
    /// sensor's rate (and so the number of noise draws) changes.
    init(seed: UInt64, stream: UInt64) {
        var splitMix = seed ^ (stream &* 0xD1B5_4A32_D192_ED03)
        func nextSplitMix() -> UInt64 {
            splitMix &+= 0x9E37_79B9_7F4A_7C15
            var z = splitMix
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = nextSplitMix()
        s1 = nextSplitMix()
        s2 = nextSplitMix()
        s3 = nextSplitMix()
    }

    /// The next 64 random bits (xoshiro256**).
    mutating func next() -> UInt64 {
        let result = rotateLeft(s1 &* 5, by: 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotateLeft(s3, by: 45)
        return result
    }

    /// Uniform in [0, 1), 53 bits of precision.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// Uniform in [`lower`, `upper`).
    mutating func uniform(_ lower: Double, _ upper: Double) -> Double {
        lower + (upper - lower) * unit()
    }

    /// Standard normal (mean 0, standard deviation 1), by the Box–Muller transform.
    mutating func gaussian() -> Double {
        let u1 = 1 - unit()  // (0, 1]: log never sees 0
        let u2 = unit()
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    private func rotateLeft(_ value: UInt64, by amount: UInt64) -> UInt64 {
        (value << amount) | (value >> (64 - amount))
    }
}
