import Foundation
import ShakeDetection
@testable import ShakeRecording
import Testing

/// A pause in the samples longer than the detector's gap limit, as `shake plot` draws it: a break
/// in every curve, not a line straight across, and a band that says how long it lasted.
@Suite struct PlotGapTests {
    /// 20 s of a slow sway at `rate` Hz with no samples from 8 s to 8 s + `pause`.
    static func recording(rate: Double, pause: Double) -> [Sample] {
        stride(from: 0.0, to: 20, by: 1 / rate).filter { !($0 > 8 && $0 < 8 + pause) }.map { t in
            Sample(time: t, x: 3 * sin(3 * t), y: 0, z: 9.81 + 2 * cos(t))
        }
    }

    /// The pieces of a path (`M … L …` each), as the x of their points.
    static func pieces(_ d: String) -> [[Double]] {
        d.split(separator: "M").map { piece in
            piece.split(separator: "L").compactMap { $0.split(separator: ",").first.flatMap { Double($0) } }
        }
    }

    /// Drawn point by point (50 Hz) and as pixel columns (400 Hz: 8,000 samples), the pause from
    /// 8 to 13 s is no line in any curve, and a band over it says 'no samples, 5.0 s'.
    @Test(arguments: [50.0, 400.0])
    func pauseOverTheGapLimitBreaksEveryCurve(rate: Double) throws {
        let samples = Self.recording(rate: rate, pause: 5)
        var plot = RecordingPlot(title: "pause.csv", samples: samples, thresholds: RecordingPlot.thresholds(of: .medium))
        plot.linear = RecordingPlot.detectorView(samples, configuration: .medium).linear
        let svg = try #require(SVGElements.parse(plot.svg()))
        // 1102 px for 20 s: the pause runs from x = 78 + 8 × 55.1 to 78 + 13 × 55.1.
        let (gapStart, gapEnd) = (78 + 8 * 55.1, 78 + 13 * 55.1)
        let series = svg.withClass("series", element: "path")
        #expect(series.count == 4)
        for path in series {
            for piece in Self.pieces(path["d"] ?? "") {
                let across = piece.contains { $0 < gapStart + 1 } && piece.contains { $0 > gapEnd - 1 }
                #expect(!across, "\(path["class"] ?? ""): a line across the pause")
            }
        }
        let band = try #require(svg.withClass("sample-gap").first)
        let x = try #require(band["x"].flatMap(Double.init)), width = try #require(band["width"].flatMap(Double.init))
        #expect(abs(x - gapStart) < 2 && abs(x + width - gapEnd) < 2, "band \(x), \(width)")
        #expect(svg.texts.contains("no samples, 5.0 s"))
        #expect(svg.texts.contains("no samples"), "the legend names the bands")
    }

    /// A pause too short on screen for its band's own label (0.6 s of 20 s: 33 px) is still
    /// named: the legend has an entry for the bands.
    @Test func aNarrowPauseIsNamedInTheLegend() throws {
        let samples = Self.recording(rate: 50, pause: 0.6)
        let svg = try #require(SVGElements.parse(RecordingPlot(title: "pause.csv", samples: samples).svg()))
        #expect(svg.withClass("sample-gap").count == 1)
        #expect(!svg.texts.contains { $0.hasPrefix("no samples, ") })
        #expect(svg.texts.contains("no samples"))
    }

    /// A pause within the gap limit (0.4 s, under the default 0.5 s) is drawn joined, as the
    /// detector reads across it.
    @Test func pauseWithinTheGapLimitStaysJoined() throws {
        let samples = Self.recording(rate: 50, pause: 0.4)
        let svg = try #require(SVGElements.parse(RecordingPlot(title: "pause.csv", samples: samples).svg()))
        let series = svg.withClass("series", element: "path")
        #expect(series.count == 4, "x, y, z and the linear acceleration drawn")
        for path in series {
            #expect(Self.pieces(path["d"] ?? "").count == 1)
        }
        #expect(svg.withClass("sample-gap").isEmpty)
        #expect(!svg.texts.contains("no samples"), "no legend entry without a band")
    }
}
