#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ShakeDetection

/// A threshold drawn as a dashed line on the linear-acceleration panel, m/s².
public struct PlotThreshold: Sendable, Hashable {
    public var label: String
    public var metersPerSecondSquared: Double
    public init(label: String, metersPerSecondSquared: Double) {
        self.label = label
        self.metersPerSecondSquared = metersPerSecondSquared
    }
}

/// A picture of a recording as a self-contained SVG, for `shake plot`.
///
/// Two stacked panels over a shared time axis (seconds):
/// 1. the raw x, y and z acceleration (m/s², gravity included);
/// 2. the linear acceleration (m/s²) with the detector's thresholds as dashed lines: `linear`
///    when it is given (the detector's own `|l|`, see `detectorView`), else `|a − g|`, where
///    the gravity estimate `g` is a one-pole low-pass of the raw signal, `g ← g + α (a − g)`
///    with `α = 1 − exp(−Δt / τ)` for the sample interval `Δt` (s) and time constant `τ`
///    (`gravityTimeConstantSeconds`, default 0.5 s), started at the first sample. The peaks
///    of `halfWaves` are dots on it: filled when the half-wave linked to the one before, hollow
///    when it started a chain.
///
/// When `saturation` is set, the raw panel shows ±saturation as dotted lines. A pause between
/// samples longer than `gapLimitSeconds` breaks every curve (no line across it) and is a light
/// band across both panels, labelled with its length (`no samples, 5.0 s`) where it is wide enough,
/// at the band's top or lower down, clear of the sensor saturation's label.
///
/// Each threshold's label sits just above or below its line, at the panel's end or as near it
/// as it is clear of the curve, the half-wave dots, the events and the other labels; where the
/// curve leaves no room along the line (a long walk drawn whole), at the end, or where the end
/// holds another label or a marker (a note, say), at the place clear of them that the curve
/// crosses least; with no such place, a note names the threshold (`no room to label the line of
/// release 0.6 m/s²`). No label is drawn over another.
///
/// Labelled shakes (runs of `shake = 1`) are shaded bands across both panels; the detector's
/// events are markers with their times: `began` ▲, `ended` ▼, `cancelled` ✕. Markers closer than
/// a label's width share one label (`3 began, 10.00 to 10.40 s`); labels never overlap each other
/// or a marker, and markers left without one for lack of room are counted in a note (see
/// `PlotEventLabels`). Spans of ongoing
/// motion (when a shake needs `ongoingMotionStrongHalfWaves` half-waves of
/// `ongoingMotionPeakAcceleration` to begin) are grey bands on the
/// linear-acceleration panel.
/// Long recordings are drawn as the minimum and maximum of each pixel column, so the file
/// stays small whatever the sample count: about 150 kB at most for the curves, plus about 130
/// bytes per half-wave dot (at most `maximumHalfWavesDrawn`) and a few hundred bytes per event
/// marker and labelled shake, which are all drawn (2,000 events made 640 kB in a review's probe).
public struct RecordingPlot: Sendable {
    public var title: String
    /// A second line under the title (detector, counts).
    public var subtitle: String
    public var samples: [Sample]
    /// One label per sample (`true` inside a labelled shake), or nil for unlabelled recordings.
    public var labels: [Bool]?
    public var events: [ShakeEvent]
    public var thresholds: [PlotThreshold]
    /// Spans of ongoing motion, s (see `ongoingMotion(_:configuration:)`).
    public var ongoingMotion: [ClosedRange<Double>] = []
    /// Raw-axis saturation level drawn as ±lines on the raw panel, m/s²; nil: none.
    public var saturation: Double?
    /// Time constant of the plot's gravity low-pass, s. Default 0.5.
    public var gravityTimeConstantSeconds = 0.5
    /// The detector's `|l|` for every sample, m/s² (`detectorView`), drawn instead of the plot's
    /// own low-pass estimate; nil (or not one value per sample): the estimate.
    public var linear: [Double]?
    /// Half-waves whose peaks are drawn on the linear panel (`detectorView`). At most
    /// `maximumHalfWavesDrawn` in the time range are drawn; with more, none, and a note says so.
    public var halfWaves: [ShakeExplanation.HalfWave] = []
    public static let maximumHalfWavesDrawn = 1000
    /// The time range drawn, s; nil: from the first / to the last sample.
    public var from: Double?
    public var to: Double?
    /// Width of the picture in pixels. Default 1200. The picture is drawn at least
    /// ``minimumWidth`` wide, and at the default for a width that is no finite number.
    public var width = 1200.0
    /// The narrowest picture drawn, px: the panels' margins and axis labels take about 100.
    public static let minimumWidth = 400.0
    /// A pause between two samples longer than this, s, is drawn as a break in the curves (no
    /// line across it) and shaded (at most `maximumGapsShaded` of them); the detector's
    /// `maximumGapSeconds`, over which it cancels a shake and restarts. Default 0.5.
    public var gapLimitSeconds = ShakeConfiguration.default.maximumGapSeconds
    public static let maximumGapsShaded = 200

    public init(title: String, subtitle: String = "", samples: [Sample], labels: [Bool]? = nil,
                events: [ShakeEvent] = [], thresholds: [PlotThreshold] = []) {
        self.title = title
        self.subtitle = subtitle
        self.samples = samples
        self.labels = labels
        self.events = events
        self.thresholds = thresholds
    }

    /// The thresholds of `configuration` to draw on the linear-acceleration panel, m/s²: the
    /// half-wave onset and release (hysteresis). Edit here when the configuration's fields change.
    public static func thresholds(of configuration: ShakeConfiguration) -> [PlotThreshold] {
        [PlotThreshold(label: "onset", metersPerSecondSquared: configuration.onsetAcceleration),
         PlotThreshold(label: "release", metersPerSecondSquared: configuration.releaseAcceleration)]
    }

    /// The raw-axis level the detector treats as sensor saturation, m/s², or nil when disabled.
    public static func saturation(of configuration: ShakeConfiguration) -> Double? {
        configuration.saturationAcceleration.isFinite ? configuration.saturationAcceleration : nil
    }

    /// The gravity time constant of `configuration`, s, so the plot filters as the detector does.
    public static func gravityTimeConstant(of configuration: ShakeConfiguration) -> Double {
        configuration.gravityTimeConstantSeconds
    }

    /// Linear acceleration `|a − g|` of every sample, m/s² (see the type's description).
    public static func linearMagnitudes(_ samples: [Sample], timeConstantSeconds tau: Double) -> [Double] {
        guard let first = samples.first else { return [] }
        var gravity = (x: first.x, y: first.y, z: first.z)
        var lastTime = first.time
        return samples.map { sample in
            let dt = max(0, sample.time - lastTime)
            lastTime = sample.time
            let alpha = tau > 0 ? 1 - exp(-dt / tau) : 1
            gravity.x += alpha * (sample.x - gravity.x)
            gravity.y += alpha * (sample.y - gravity.y)
            gravity.z += alpha * (sample.z - gravity.z)
            let x = sample.x - gravity.x, y = sample.y - gravity.y, z = sample.z - gravity.z
            return (x * x + y * y + z * z).squareRoot()
        }
    }

    /// The spans in which a detector with `configuration` saw ongoing motion, from the first
    /// sample that did to the first that did not (or the last sample), s.
    public static func ongoingMotion(_ samples: [Sample], configuration: ShakeConfiguration) -> [ClosedRange<Double>] {
        detectorView(samples, configuration: configuration).ongoingMotion
    }

    /// What a `ShakeDetector` with a configuration saw in a recording, from one pass over it.
    public struct DetectorView: Sendable {
        /// `|l|` after every sample (`ShakeDetector.linearAcceleration`), m/s².
        public var linear: [Double] = []
        /// Every half-wave, in order (`ShakeDetector.process(_:explanation:)`).
        public var halfWaves: [ShakeExplanation.HalfWave] = []
        /// Its events, with the cancellation of a shake still in progress at the last sample.
        public var events: [ShakeEvent] = []
        /// The spans of ongoing motion, s (see `ongoingMotion(_:configuration:)`).
        public var ongoingMotion: [ClosedRange<Double>] = []
    }

    /// Runs a detector with `configuration` over `samples` once and keeps what the plot draws.
    public static func detectorView(_ samples: [Sample], configuration: ShakeConfiguration) -> DetectorView {
        var detector = ShakeDetector(configuration: configuration)
        var view = DetectorView()
        view.linear.reserveCapacity(samples.count)
        var start: Double?
        // min and max: a span stays well-formed even if the samples' times go backwards.
        func span(_ a: Double, _ b: Double) -> ClosedRange<Double> { min(a, b)...max(a, b) }
        for sample in samples {
            var explanation = ShakeExplanation()
            if let event = detector.process(sample, explanation: &explanation) { view.events.append(event) }
            if let halfWave = explanation.halfWave { view.halfWaves.append(halfWave) }
            let l = detector.linearAcceleration
            view.linear.append((l.x * l.x + l.y * l.y + l.z * l.z).squareRoot())
            let moving = detector.isInOngoingMotion
            if moving && start == nil { start = sample.time }
            if !moving, let begun = start {
                view.ongoingMotion.append(span(begun, sample.time))
                start = nil
            }
        }
        if let last = samples.last {
            if let start { view.ongoingMotion.append(span(start, last.time)) }
            if let event = detector.interrupt(at: last.time) { view.events.append(event) }
        }
        return view
    }

    /// Labelled shake runs `(start, end)` in seconds (first and last `shake = 1` sample).
    static func runs(samples: [Sample], labels: [Bool]) -> [(start: Double, end: Double)] {
        var runs: [(Double, Double)] = []
        var start: Double?
        var last = 0.0
        for (sample, isShake) in zip(samples, labels) {
            if isShake && start == nil { start = sample.time }
            if !isShake, let begun = start {
                runs.append((begun, last))
                start = nil
            }
            last = sample.time
        }
        if let start { runs.append((start, last)) }
        return runs
    }

    // MARK: Drawing

    static let colors = (x: "#d62728", y: "#2ca02c", z: "#1f77b4", linear: "#5b2a86", threshold: "#e6550d", secondThreshold: "#fd8d3c",
                         band: "#fdd835", ongoing: "#7f7f7f", gap: "#000000", began: "#1a9850", ended: "#2166ac", cancelled: "#777777")

    public func svg() -> String {
        let height = 676.0
        // NaN stopped the program (converted to an Int for the curves); a few pixels drew nothing.
        let width = self.width.isFinite ? max(self.width, Self.minimumWidth) : 1200
        var svg = PlotSVG(width: width, height: height)
        let firstTime = samples.first?.time ?? 0
        let lastTime = samples.last?.time ?? 1
        let start = from ?? firstTime
        var end = to ?? lastTime
        if !(end > start) { end = start + 1 }
        let lower = samples.partitionIndex { $0.time >= start }
        let upper = samples.partitionIndex { $0.time > end }
        let visible = lower..<max(lower, upper)
        let detectorsView = self.linear?.count == samples.count
        let linear = detectorsView
            ? self.linear ?? [] : Self.linearMagnitudes(samples, timeConstantSeconds: gravityTimeConstantSeconds)

        let left = 78.0, right = width - 20
        let panel1 = (top: 100.0, height: 250.0)
        let panel2 = (top: 396.0, height: 220.0)
        let timeScale = PlotScale(start, end, count: 10)
        func xPosition(_ time: Double) -> Double { left + (time - start) / (end - start) * (right - left) }

        // Title, subtitle, legend.
        svg.text(title, x: left, y: 26, size: 17, weight: "bold", className: "title")
        if !subtitle.isEmpty { svg.text(subtitle, x: left, y: 46, size: 12, fill: "#555555", className: "subtitle") }
        let gaps = gaps(visible: visible).filter { $0.upperBound >= start && $0.lowerBound <= end }
        legend(&svg, x: left, y: 70, shadesGaps: !gaps.isEmpty && gaps.count <= Self.maximumGapsShaded)

        // Labelled shakes: one band per run across both panels.
        if let labels {
            for run in Self.runs(samples: samples, labels: labels) where run.end >= start && run.start <= end {
                let x1 = xPosition(max(run.start, start)), x2 = xPosition(min(run.end, end))
                svg.raw("rect", [("x", PlotSVG.n(x1)), ("y", PlotSVG.n(panel1.top)),
                                 ("width", PlotSVG.n(max(1, x2 - x1))),
                                 ("height", PlotSVG.n(panel2.top + panel2.height - panel1.top)),
                                 ("fill", Self.colors.band), ("fill-opacity", "0.3"), ("class", "shake-band")])
            }
        }

        // Ongoing motion: grey bands on the linear-acceleration panel.
        for span in ongoingMotion where span.upperBound >= start && span.lowerBound <= end {
            let x1 = xPosition(max(span.lowerBound, start)), x2 = xPosition(min(span.upperBound, end))
            svg.raw("rect", [("x", PlotSVG.n(x1)), ("y", PlotSVG.n(panel2.top)),
                             ("width", PlotSVG.n(max(1, x2 - x1))), ("height", PlotSVG.n(panel2.height)),
                             ("fill", Self.colors.ongoing), ("fill-opacity", "0.18"), ("class", "ongoing-motion")])
        }

        // Pauses in the samples longer than the gap limit: a light band across both panels, with
        // its length where the band holds it (labelled once the raw panel's other label, the
        // sensor saturation's, is placed); the curves break there.
        var gapLabels: [(text: String, x: Double)] = []
        if gaps.count <= Self.maximumGapsShaded {
            for gap in gaps {
                let x1 = xPosition(max(gap.lowerBound, start)), x2 = xPosition(min(gap.upperBound, end))
                svg.raw("rect", [("x", PlotSVG.n(x1)), ("y", PlotSVG.n(panel1.top)), ("width", PlotSVG.n(max(1, x2 - x1))),
                                 ("height", PlotSVG.n(panel2.top + panel2.height - panel1.top)),
                                 ("fill", Self.colors.gap), ("fill-opacity", "0.08"), ("class", "sample-gap")])
                let text = "no samples, " + FixedDecimals.format(gap.upperBound - gap.lowerBound, decimals: 1) + " s"
                if PlotEventLabels.width(text) + 6 <= x2 - x1 { gapLabels.append((text, (x1 + x2) / 2)) }
            }
        }

        // Panel 1: raw axes.
        var rawMinimum = Double.infinity, rawMaximum = -Double.infinity
        for index in visible {
            let s = samples[index]
            rawMinimum = min(rawMinimum, s.x, s.y, s.z)
            rawMaximum = max(rawMaximum, s.x, s.y, s.z)
        }
        if !rawMinimum.isFinite { rawMinimum = -10; rawMaximum = 10 }
        if let saturation {
            rawMinimum = min(rawMinimum, -saturation)
            rawMaximum = max(rawMaximum, saturation)
        }
        let rawScale = PlotScale(rawMinimum, rawMaximum, count: 6)
        frame(&svg, top: panel1.top, height: panel1.height, left: left, right: right, valueScale: rawScale,
              timeScale: timeScale, xPosition: xPosition, timeLabels: false,
              axisTitle: "acceleration (m/s²)", panelTitle: "raw acceleration, gravity included")
        let rawY = { (value: Double) in panel1.top + panel1.height * (1 - (value - rawScale.lower) / (rawScale.upper - rawScale.lower)) }
        for (name, color, value) in [("x", Self.colors.x, { (s: Sample) in s.x }),
                                     ("y", Self.colors.y, { (s: Sample) in s.y }),
                                     ("z", Self.colors.z, { (s: Sample) in s.z })] {
            let d = Self.pathData(envelope(visible: visible, start: start, end: end, left: left, right: right,
                                           value: { value(samples[$0]) }, y: rawY))
            svg.raw("path", [("d", d), ("fill", "none"), ("stroke", color), ("stroke-width", "1"),
                             ("stroke-linejoin", "round"), ("stroke-linecap", "round"), ("class", "series series-\(name)")])
        }

        // The raw panel's labels: the sensor saturation's at the panel's right end, above its line,
        // then each pause's (see `gapLabelBaseline`).
        var rawLabels: [PlotLabelBox] = []
        var rawLines: [PlotLabelBox] = []
        if let saturation {
            for level in [saturation, -saturation] {
                let y = rawY(level)
                svg.line(x1: left, y1: y, x2: right, y2: y, stroke: "#888888", width: 1, dash: "2 3", className: "saturation")
                rawLines.append(PlotLabelBox(minX: left, maxX: right, minY: y - 0.5, maxY: y + 0.5))
            }
            let text = "sensor saturation ±\(PlotSVG.n(saturation)) m/s²"
            svg.text(text, x: right - 4, y: rawY(saturation) - 5, anchor: "end", size: 11, fill: "#666666", halo: true)
            rawLabels.append(PlotLabelBox(text: text, size: 11, x: right - 4, baseline: rawY(saturation) - 5, anchor: "end"))
        }
        for label in gapLabels {
            let rows = (top: panel1.top, bottom: panel1.top + panel1.height)
            guard let baseline = Self.gapLabelBaseline(label.text, x: label.x, rows: rows, clearOf: rawLabels,
                                                       preferablyOf: rawLines) else { continue }
            svg.text(label.text, x: label.x, y: baseline, anchor: "middle", size: 11, fill: "#555555",
                     className: "sample-gap-label", halo: true)
            rawLabels.append(PlotLabelBox(text: label.text, size: 11, x: label.x, baseline: baseline, anchor: "middle"))
        }

        // Panel 2: linear acceleration and thresholds.
        let shownHalfWaves = halfWaves.filter { $0.peakTime >= start && $0.peakTime <= end }
        let drawsHalfWaves = shownHalfWaves.count <= Self.maximumHalfWavesDrawn
        var linearMaximum = thresholds.map(\.metersPerSecondSquared).max() ?? 0
        for index in visible { linearMaximum = max(linearMaximum, linear[index]) }
        if drawsHalfWaves { for halfWave in shownHalfWaves { linearMaximum = max(linearMaximum, halfWave.peakAcceleration) } }
        let linearScale = PlotScale(0, max(1, linearMaximum * 1.12), count: 5)
        frame(&svg, top: panel2.top, height: panel2.height, left: left, right: right, valueScale: linearScale,
              timeScale: timeScale, xPosition: xPosition, timeLabels: true,
              axisTitle: detectorsView ? "|l| (m/s²)" : "|a − gravity| (m/s²)",
              panelTitle: detectorsView
                ? "linear acceleration as the detector sees it (gravity removed, τ = \(PlotSVG.n(gravityTimeConstantSeconds)) s; "
                    + "averaged over the smoothing window)"
                : "linear acceleration (gravity: one-pole low-pass, τ = \(PlotSVG.n(gravityTimeConstantSeconds)) s)")
        let linearY = { (value: Double) in
            panel2.top + panel2.height * (1 - (value - linearScale.lower) / (linearScale.upper - linearScale.lower))
        }
        let linearPoints = envelope(visible: visible, start: start, end: end, left: left, right: right,
                                    value: { linear[$0] }, y: linearY)
        svg.raw("path", [("d", Self.pathData(linearPoints)), ("fill", "none"), ("stroke", Self.colors.linear),
                         ("stroke-width", "1"), ("stroke-linejoin", "round"), ("stroke-linecap", "round"),
                         ("class", "series series-linear")])
        // Threshold labels keep clear of the curve, the half-wave dots, the events' lines, the
        // other threshold lines, and (a place over the curve, where it leaves none) of the events'
        // markers and labels, the notes and each other: a label with no such place is named in a note.
        let thresholdYs = thresholds.map { linearY($0.metersPerSecondSquared) }
        let lineBoxes = thresholdYs.map { PlotLabelBox(minX: left, maxX: right, minY: $0 - 0.75, maxY: $0 + 0.75) }
        // What a label may cross where nothing else is left (lines, dots), and what it may not.
        var crossable: [PlotLabelBox] = []
        var labelled: [PlotLabelBox] = []
        let shownEvents = events.filter { $0.time >= start && $0.time <= end }.sorted { $0.time < $1.time }
        let eventLabels = PlotEventLabels(events: shownEvents, xPosition: xPosition, panelTop: panel2.top,
                                          minX: left, maxX: right)
        for event in shownEvents {
            let x = xPosition(event.time)
            crossable.append(PlotLabelBox(minX: x - 1, maxX: x + 1, minY: panel2.top, maxY: panel2.top + panel2.height))
            let y = panel2.top + PlotEventLabels.row(event.phase)
            labelled.append(PlotLabelBox(minX: x - 8, maxX: x + 8, minY: y - 8, maxY: y + 8))
        }
        labelled += eventLabels.labels.map(\.box)
        // Notes at the panel's lower left, one line each, kept clear too.
        var notes: [(text: String, className: String)] = []
        if !drawsHalfWaves {
            notes.append(("\(shownHalfWaves.count) half-waves in view: too many to draw (choose a shorter --from/--to)",
                          "half-waves-omitted"))
        }
        if gaps.count > Self.maximumGapsShaded {
            notes.append(("\(gaps.count) pauses of over \(PlotSVG.n(gapLimitSeconds)) s between samples: the curves break "
                + "at each; too many to shade", "sample-gaps-unshaded"))
        }
        if eventLabels.unlabelledEvents > 0 {
            let count = eventLabels.unlabelledEvents
            notes.append(("\(count) event marker\(count == 1 ? "" : "s") without a label: no room beside "
                + (count == 1 ? "it" : "them") + " (choose a shorter --from/--to)", "events-unlabelled"))
        }
        func noteBox(_ text: String, line index: Int) -> PlotLabelBox {
            PlotLabelBox(text: text, size: 11, x: left + 4, baseline: panel2.top + panel2.height - 6 - 15 * Double(index),
                         anchor: "start")
        }
        for (index, note) in notes.enumerated() { labelled.append(noteBox(note.text, line: index)) }
        if drawsHalfWaves {
            crossable += shownHalfWaves.map { halfWave in
                let x = xPosition(halfWave.peakTime), y = linearY(halfWave.peakAcceleration)
                return PlotLabelBox(minX: x - 4, maxX: x + 4, minY: y - 4, maxY: y + 4)
            }
        }
        let panel = PlotLabelBox(minX: left, maxX: right, minY: panel2.top, maxY: panel2.top + panel2.height)
        let thresholdTexts = thresholds.map { "\($0.label) \(PlotSVG.n($0.metersPerSecondSquared)) m/s²" }
        // The first label goes as near the right end as it can, later ones as near the left, so
        // close thresholds keep readable labels. A label left without a place is named in a note,
        // whose line is then kept clear by all of them.
        var unplaced: [Int] = []
        var places: [Int: (x: Double, baseline: Double, anchor: String, box: PlotLabelBox)] = [:]
        while true {
            var kept = labelled
            if !unplaced.isEmpty {
                kept.append(noteBox(Self.unlabelledThresholdsNote(unplaced.map { thresholdTexts[$0] }), line: notes.count))
            }
            places = [:]
            var missing: [Int] = []
            for index in thresholds.indices where !unplaced.contains(index) {
                let others = lineBoxes.indices.filter { $0 != index }.map { lineBoxes[$0] }
                if let place = Self.labelPlace(thresholdTexts[index], size: 11, lineY: thresholdYs[index],
                                               fromRight: index == 0, within: panel, clearOf: linearPoints,
                                               and: crossable + others, labels: kept) {
                    kept.append(place.box)
                    places[index] = place
                } else {
                    missing.append(index)
                }
            }
            if missing.isEmpty { break }
            unplaced = (unplaced + missing).sorted()
        }
        if !unplaced.isEmpty {
            notes.append((Self.unlabelledThresholdsNote(unplaced.map { thresholdTexts[$0] }), "thresholds-unlabelled"))
        }
        for (index, y) in thresholdYs.enumerated() {
            let color = index == 0 ? Self.colors.threshold : Self.colors.secondThreshold
            svg.line(x1: left, y1: y, x2: right, y2: y, stroke: color, width: 1.5, dash: index == 0 ? "7 4" : "3 3",
                     className: "threshold")
            if let place = places[index] {
                svg.text(thresholdTexts[index], x: place.x, y: place.baseline, anchor: place.anchor, size: 11, fill: color,
                         halo: true)
            }
        }

        // Half-wave peaks: filled when linked to the one before, hollow when starting a chain.
        if drawsHalfWaves {
            for halfWave in shownHalfWaves {
                var isLinked = false
                if case .linked = halfWave.link { isLinked = true }
                svg.raw("circle", [("cx", PlotSVG.n(xPosition(halfWave.peakTime))),
                                   ("cy", PlotSVG.n(linearY(halfWave.peakAcceleration))), ("r", "3"),
                                   ("fill", isLinked ? Self.colors.linear : "#ffffff"),
                                   ("stroke", Self.colors.linear), ("stroke-width", "1.2"),
                                   ("class", isLinked ? "half-wave half-wave-linked" : "half-wave half-wave-unlinked")])
            }
        }
        for (index, note) in notes.enumerated() {
            svg.text(note.text, x: left + 4, y: panel2.top + panel2.height - 6 - 15 * Double(index), size: 11,
                     fill: "#666666", className: note.className, halo: true)
        }

        // Detected events: a line and a marker each; the labels as laid out above.
        for event in shownEvents {
            let x = xPosition(event.time)
            svg.line(x1: x, y1: panel1.top, x2: x, y2: panel2.top + panel2.height, stroke: "#444444", width: 0.8,
                     dash: "2 3", className: "event-line")
            let y = panel2.top + PlotEventLabels.row(event.phase)
            switch event.phase {
            case .began:
                svg.raw("path", [("d", "M\(PlotSVG.n(x - 7)),\(PlotSVG.n(y + 6)) L\(PlotSVG.n(x + 7)),\(PlotSVG.n(y + 6)) "
                                     + "L\(PlotSVG.n(x)),\(PlotSVG.n(y - 7)) Z"),
                                 ("fill", Self.colors.began), ("class", "event-began")])
            case .ended:
                svg.raw("path", [("d", "M\(PlotSVG.n(x - 7)),\(PlotSVG.n(y - 6)) L\(PlotSVG.n(x + 7)),\(PlotSVG.n(y - 6)) "
                                     + "L\(PlotSVG.n(x)),\(PlotSVG.n(y + 7)) Z"),
                                 ("fill", Self.colors.ended), ("class", "event-ended")])
            case .cancelled:
                svg.raw("path", [("d", "M\(PlotSVG.n(x - 5)),\(PlotSVG.n(y - 5)) L\(PlotSVG.n(x + 5)),\(PlotSVG.n(y + 5)) "
                                     + "M\(PlotSVG.n(x - 5)),\(PlotSVG.n(y + 5)) L\(PlotSVG.n(x + 5)),\(PlotSVG.n(y - 5))"),
                                 ("stroke", Self.colors.cancelled), ("stroke-width", "2.5"), ("class", "event-cancelled")])
            }
        }
        for label in eventLabels.labels {
            let color = switch label.phase {
            case .began: Self.colors.began
            case .ended: Self.colors.ended
            case .cancelled: Self.colors.cancelled
            }
            svg.text(label.text, x: label.x, y: label.baseline, anchor: label.anchor, size: PlotEventLabels.size,
                     fill: color, className: "event-label", halo: true)
        }

        svg.text("time (s)", x: (left + right) / 2, y: panel2.top + panel2.height + 44, anchor: "middle", size: 13,
                 className: "axis-title")
        return svg.document(title: title)
    }

    /// `shadesGaps`: pauses between samples are drawn as bands (the legend names them, since a
    /// narrow band has no room for its own label).
    private func legend(_ svg: inout PlotSVG, x: Double, y: Double, shadesGaps: Bool) {
        var x = x
        func item(_ text: String, swatch: (inout PlotSVG, Double) -> Void) {
            swatch(&svg, x)
            svg.text(text, x: x + 26, y: y + 4, size: 12)
            x += 26 + Double(text.count) * 7 + 22
        }
        svg.open("g", ["class": "legend"])
        for (name, color) in [("x", Self.colors.x), ("y", Self.colors.y), ("z", Self.colors.z)] {
            item(name) { $0.line(x1: $1, y1: y, x2: $1 + 20, y2: y, stroke: color, width: 2) }
        }
        item(linear?.count == samples.count ? "|l|" : "|a − gravity|") {
            $0.line(x1: $1, y1: y, x2: $1 + 20, y2: y, stroke: Self.colors.linear, width: 2)
        }
        if !halfWaves.isEmpty {
            item("half-wave peak") {
                $0.raw("circle", [("cx", PlotSVG.n($1 + 5)), ("cy", PlotSVG.n(y)), ("r", "3"), ("fill", Self.colors.linear),
                                  ("stroke", Self.colors.linear)])
                $0.raw("circle", [("cx", PlotSVG.n($1 + 15)), ("cy", PlotSVG.n(y)), ("r", "3"), ("fill", "#ffffff"),
                                  ("stroke", Self.colors.linear)])
            }
        }
        if let first = thresholds.first {
            item(first.label) {
                $0.line(x1: $1, y1: y, x2: $1 + 20, y2: y, stroke: Self.colors.threshold, width: 2, dash: "7 4")
            }
        }
        if thresholds.count > 1 {
            item(thresholds[1].label) {
                $0.line(x1: $1, y1: y, x2: $1 + 20, y2: y, stroke: Self.colors.secondThreshold, width: 2, dash: "3 3")
            }
        }
        if labels != nil {
            item("labelled shake") {
                $0.raw("rect", [("x", PlotSVG.n($1)), ("y", PlotSVG.n(y - 7)), ("width", "20"), ("height", "14"),
                                ("fill", Self.colors.band), ("fill-opacity", "0.45")])
            }
        }
        if shadesGaps {
            item("no samples") {
                $0.raw("rect", [("x", PlotSVG.n($1)), ("y", PlotSVG.n(y - 7)), ("width", "20"), ("height", "14"),
                                ("fill", Self.colors.gap), ("fill-opacity", "0.08"), ("stroke", "#bbbbbb")])
            }
        }
        if !ongoingMotion.isEmpty {
            item("ongoing motion") {
                $0.raw("rect", [("x", PlotSVG.n($1)), ("y", PlotSVG.n(y - 7)), ("width", "20"), ("height", "14"),
                                ("fill", Self.colors.ongoing), ("fill-opacity", "0.35")])
            }
        }
        item("shake began") {
            $0.raw("path", [("d", "M\(PlotSVG.n($1 + 3)),\(PlotSVG.n(y + 6)) L\(PlotSVG.n($1 + 17)),\(PlotSVG.n(y + 6)) "
                                + "L\(PlotSVG.n($1 + 10)),\(PlotSVG.n(y - 7)) Z"), ("fill", Self.colors.began)])
        }
        item("shake ended") {
            $0.raw("path", [("d", "M\(PlotSVG.n($1 + 3)),\(PlotSVG.n(y - 6)) L\(PlotSVG.n($1 + 17)),\(PlotSVG.n(y - 6)) "
                                + "L\(PlotSVG.n($1 + 10)),\(PlotSVG.n(y + 7)) Z"), ("fill", Self.colors.ended)])
        }
        svg.close("g")
    }

    /// The panel's frame, grid, tick labels and titles.
    private func frame(_ svg: inout PlotSVG, top: Double, height: Double, left: Double, right: Double,
                       valueScale: PlotScale, timeScale: PlotScale, xPosition: (Double) -> Double,
                       timeLabels: Bool, axisTitle: String, panelTitle: String) {
        svg.text(panelTitle, x: left, y: top - 8, size: 12, weight: "bold", fill: "#333333", className: "panel-title")
        for tick in valueScale.ticks {
            let y = top + height * (1 - (tick - valueScale.lower) / (valueScale.upper - valueScale.lower))
            svg.line(x1: left, y1: y, x2: right, y2: y, stroke: "#e4e4e4", className: "grid")
            svg.text(valueScale.label(tick), x: left - 6, y: y + 4, anchor: "end", size: 11, fill: "#444444")
        }
        for tick in timeScale.ticks where tick >= timeScale.lower {
            let x = xPosition(tick)
            guard x >= left - 0.5 && x <= right + 0.5 else { continue }
            svg.line(x1: x, y1: top, x2: x, y2: top + height, stroke: "#eeeeee", className: "grid")
            if timeLabels {
                svg.text(timeScale.label(tick), x: x, y: top + height + 17, anchor: "middle", size: 11, fill: "#444444")
            }
        }
        svg.raw("rect", [("x", PlotSVG.n(left)), ("y", PlotSVG.n(top)), ("width", PlotSVG.n(right - left)),
                         ("height", PlotSVG.n(height)), ("fill", "none"), ("stroke", "#888888"), ("class", "frame")])
        svg.text(axisTitle, x: 18, y: top + height / 2, anchor: "middle", size: 12, rotate: -90, className: "axis-title")
    }

    /// Path data of a series, as pieces of line: every sample when there are few, else the
    /// minimum and maximum of each pixel column (so the envelope looks the same and the path stays
    /// short). A new piece starts after each gap between samples longer than `gapLimitSeconds`
    /// (when its ends fall in different columns), so no line is drawn across it.
    private func envelope(visible: Range<Int>, start: Double, end: Double, left: Double, right: Double,
                          value: (Int) -> Double, y: (Double) -> Double) -> [[(x: Double, y: Double)]] {
        var pieces: [[(x: Double, y: Double)]] = []
        func isGap(before index: Int) -> Bool {
            index > visible.lowerBound && samples[index].time - samples[index - 1].time > gapLimitSeconds
        }
        let span = end - start
        let columns = max(1, Int(right - left))
        if visible.count <= 2 * columns {
            for index in visible {
                if pieces.isEmpty || isGap(before: index) { pieces.append([]) }
                pieces[pieces.count - 1].append((left + (samples[index].time - start) / span * (right - left), y(value(index))))
            }
            return pieces
        }
        var minimum = [Double](repeating: .infinity, count: columns)
        var maximum = [Double](repeating: -.infinity, count: columns)
        var breaks = [Bool](repeating: false, count: columns)
        var previousColumn = -1
        for index in visible {
            let column = min(columns - 1, max(0, Int((samples[index].time - start) / span * Double(columns))))
            if column != previousColumn && isGap(before: index) { breaks[column] = true }
            previousColumn = column
            let v = value(index)
            if v < minimum[column] { minimum[column] = v }
            if v > maximum[column] { maximum[column] = v }
        }
        for column in 0..<columns where minimum[column].isFinite {
            if pieces.isEmpty || breaks[column] { pieces.append([]) }
            let x = left + Double(column) + 0.5
            pieces[pieces.count - 1].append((x, y(maximum[column])))
            if maximum[column] != minimum[column] { pieces[pieces.count - 1].append((x, y(minimum[column]))) }
        }
        return pieces
    }

    /// The gaps between the samples in `visible` (and the ones just outside it) longer than
    /// `gapLimitSeconds`, s.
    private func gaps(visible: Range<Int>) -> [ClosedRange<Double>] {
        guard !visible.isEmpty else { return [] }
        var gaps: [ClosedRange<Double>] = []
        for index in max(1, visible.lowerBound)..<min(samples.count, visible.upperBound + 1) {
            let (a, b) = (samples[index - 1].time, samples[index].time)
            if b - a > gapLimitSeconds { gaps.append(a...b) }
        }
        return gaps
    }

    /// An SVG path through each piece of `pieces`: `M x,y L x,y … M x,y …`, coordinates to a tenth
    /// of a pixel. A piece of one point is a dot (a line of no length, which round caps draw).
    private static func pathData(_ pieces: [[(x: Double, y: Double)]]) -> String {
        var d = ""
        for piece in pieces {
            for (index, point) in piece.enumerated() { d += (index == 0 ? "M" : "L") + short(point.x) + "," + short(point.y) }
            if piece.count == 1, let point = piece.first { d += "L" + short(point.x) + "," + short(point.y) }
        }
        return d
    }

    /// The baseline of a pause's label, centred at `x` in its band: the band's top row (16 px
    /// down from the panel's top) or else the first row 16 px lower whose box is clear of
    /// `labels` and of `lines`, or else of `labels` alone; nil when every row meets a label (the
    /// band then goes unlabelled, as one too narrow for its label: the legend names it).
    static func gapLabelBaseline(_ text: String, x: Double, rows: (top: Double, bottom: Double),
                                 clearOf labels: [PlotLabelBox], preferablyOf lines: [PlotLabelBox]) -> Double? {
        let size = 11.0
        let baselines = stride(from: rows.top + 16, through: rows.bottom - PlotLabelBox.descent * size - 3, by: 16)
        func box(_ baseline: Double) -> PlotLabelBox {
            PlotLabelBox(text: text, size: size, x: x, baseline: baseline, anchor: "middle")
        }
        return baselines.first { baseline in
            let box = box(baseline)
            return !labels.contains(where: box.intersects) && !lines.contains(where: box.intersects)
        } ?? baselines.first { baseline in !labels.contains(where: box(baseline).intersects) }
    }

    /// Where a threshold's label goes: just above its line (baseline 5 px up) or else just below,
    /// at the panel's right end (`fromRight`, anchored at its end) or left end, or else as near
    /// that end as the label is clear of `curve` (polylines in order of x), of `boxes` and of
    /// `labels`, in 16 px steps, inside `panel`. Where no place is clear (a curve filling the
    /// panel along the line), at that end, above or below the line, whichever the fewer segments
    /// of `curve` cross, of the two that are clear of `labels` (other labels, markers, notes);
    /// when neither is, the place clear of them that the fewest segments cross, the nearest that
    /// end among equals; nil when no place is clear of `labels`.
    private static func labelPlace(
        _ text: String, size: Double, lineY: Double, fromRight: Bool, within panel: PlotLabelBox,
        clearOf curve: [[(x: Double, y: Double)]], and boxes: [PlotLabelBox], labels: [PlotLabelBox]
    ) -> (x: Double, baseline: Double, anchor: String, box: PlotLabelBox)? {
        let anchor = fromRight ? "end" : "start"
        let baselines = [lineY - 5, lineY + size + 3]
        let first = fromRight ? panel.maxX - 4 : panel.minX + 4
        var places: [(x: Double, baseline: Double, anchor: String, box: PlotLabelBox)] = []
        var x = first
        while x >= panel.minX && x <= panel.maxX {
            for baseline in baselines {
                let box = PlotLabelBox(text: text, size: size, x: x, baseline: baseline, anchor: anchor)
                guard panel.contains(box), !labels.contains(where: box.intersects) else { continue }
                if !boxes.contains(where: box.intersects) && !curve.contains(where: box.isCrossed(byPolyline:)) {
                    return (x, baseline, anchor, box)
                }
                places.append((x, baseline, anchor, box))
            }
            x += fromRight ? -16 : 16
        }
        // At that end when it is clear of `labels` (as a long walk drawn whole has it), else anywhere.
        let atTheEnd = places.filter { $0.x == first }
        var best: (x: Double, baseline: Double, anchor: String, box: PlotLabelBox)?
        var fewest = Int.max
        for place in atTheEnd.isEmpty ? places : atTheEnd {
            var crossings = 0
            for piece in curve where crossings < fewest {
                crossings += place.box.crossings(byPolyline: piece, atMost: fewest - crossings)
            }
            if crossings < fewest { (best, fewest) = (place, crossings) }
        }
        return best
    }

    /// The note naming the thresholds whose labels found no room: `no room to label the line of
    /// release 0.6 m/s²` (`the lines of onset 1.2 m/s² and release 0.6 m/s²`).
    static func unlabelledThresholdsNote(_ texts: [String]) -> String {
        let names = texts.count <= 2 ? texts.joined(separator: " and ")
            : texts.dropLast().joined(separator: ", ") + " and " + texts[texts.count - 1]
        return "no room to label the line\(texts.count == 1 ? "" : "s") of " + names
    }

    /// A path coordinate with one decimal.
    private static func short(_ value: Double) -> String {
        guard abs(value) < 1e15 else { return PlotSVG.n(value) }
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : FixedDecimals.format(rounded, decimals: 1)
    }
}

fileprivate extension Array {
    /// The first index whose element satisfies `predicate`, for a predicate false then true
    /// along the array (binary search); `count` when none does.
    func partitionIndex(where predicate: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if predicate(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
