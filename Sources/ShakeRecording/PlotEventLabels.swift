import ShakeDetection

/// Where the plot writes its event labels, one row per phase (`began`, `ended`, `cancelled`).
///
/// In each row, from left to right, events are gathered into groups: an event and the later ones
/// whose markers its own label would cover (`began 8.40 s`, about 80 px wide in 11 px type, so
/// those within about 100 px); the gathering does not chain from one event to the next, so a
/// group spans at most one label's width.
/// A group of one is labelled `began 8.40 s` (`cancelled 3.10 s (gap)`); a larger group names its
/// count and its first and last times, `3 began, 10.00 to 10.40 s`.
///
/// A group's label goes just right of its last marker, else just left of its first one: wherever
/// the whole final text, halo included, stays inside the panel and clear of every other label
/// and every marker of its row. A group that has room on neither side is left unlabelled (its
/// markers are still drawn) and counted in `unlabelledEvents`, which the plot says in a note.
struct PlotEventLabels {
    /// One label: its text, where it is drawn (SVG `x`, baseline and `text-anchor`) and its box.
    struct Label {
        var text: String
        var phase: ShakeEvent.Phase
        var x: Double
        var baseline: Double
        var anchor: String
        var box: PlotLabelBox
    }

    /// The font size of the labels, px.
    static let size = 11.0
    /// The horizontal distance from a marker's centre to its label, px.
    static let markerGap = 9.0
    /// Half a marker's width (the ▲ and ▼ are 14 px wide), px.
    static let markerHalfWidth = 7.0
    /// The space kept between two labels' boxes, px.
    static let spacing = 2.0

    private(set) var labels: [Label] = []
    /// Events in view whose group had no room for a label.
    private(set) var unlabelledEvents = 0

    /// Lays out the labels of `events` (those drawn; in any order) at `xPosition(time)`, in the
    /// lower panel whose top is `panelTop`, between `minX` and `maxX`.
    init(events: [ShakeEvent], xPosition: (Double) -> Double, panelTop: Double, minX: Double, maxX: Double) {
        for phase in [ShakeEvent.Phase.began, .ended, .cancelled] {
            let row = events.filter { $0.phase == phase }.sorted { $0.time < $1.time }
            guard !row.isEmpty else { continue }
            let xs = row.map { xPosition($0.time) }
            let baseline = panelTop + Self.row(phase) + 4
            // Every marker of the row, which no label may cover.
            let markers = xs.map { x in
                PlotLabelBox(minX: x - Self.markerHalfWidth, maxX: x + Self.markerHalfWidth,
                             minY: baseline - 12, maxY: baseline + 4)
            }
            let layout = Self.layout(row: row, xs: xs, baseline: baseline, markers: markers, minX: minX, maxX: maxX)
            labels += layout.labels.map { Label(text: $0.text, phase: phase, x: $0.x, baseline: baseline,
                                                anchor: $0.anchor, box: $0.box) }
            unlabelledEvents += layout.unlabelled
        }
    }

    /// The groups and labels of one row (events in order of time at `xs`): of the ways to cut the
    /// row into groups (each within its first event's reach) and to label each on its right, on
    /// its left or not at all, with no label over another or over a marker, the one that labels
    /// the most events, then has the most labels (the smallest groups), then the tightest groups
    /// (the least width spanned), then the most labels on the right.
    /// A label can only lie in the space between two markers, so only the right label of one group
    /// and the left label of the next can meet: a pass over the row, keeping the best way to each
    /// group's end, finds it. Each group's last event is its first's, one of the next 15 or the
    /// last within reach.
    private static func layout(row: [ShakeEvent], xs: [Double], baseline: Double, markers: [PlotLabelBox],
                               minX: Double, maxX: Double)
        -> (labels: [(text: String, x: Double, anchor: String, box: PlotLabelBox)], unlabelled: Int) {
        let count = row.count
        // The last event each event's own label would reach.
        var reachEnd = [Int](repeating: 0, count: count)
        for first in 0..<count {
            let reach = markerGap + width(text(row[first...first])) + markerHalfWidth
            var last = first
            while last + 1 < count && xs[last + 1] - xs[first] < reach { last += 1 }
            reachEnd[first] = last
        }
        enum Side { case none, right, left }
        struct Choice {
            var first: Int, last: Int, side: Side
            var text = "", x = 0.0, anchor = "start"
            var box: PlotLabelBox?
        }
        func choices(from first: Int) -> [Choice] {
            var lasts = Array(first...min(reachEnd[first], first + 15))
            if reachEnd[first] > first + 15 { lasts.append(reachEnd[first]) }
            var result: [Choice] = []
            for last in lasts {
                result.append(Choice(first: first, last: last, side: .none))
                let label = text(row[first...last])
                for (side, x, anchor) in [(Side.right, xs[last] + markerGap, "start"), (.left, xs[first] - markerGap, "end")] {
                    let box = PlotLabelBox(text: label, size: size, x: x, baseline: baseline, anchor: anchor)
                    guard box.minX >= minX && box.maxX <= maxX else { continue }
                    // A label lies between its group's marker and the next marker on its side, clear of
                    // it: markers are in order of x, so the nearest one decides. (A next marker within
                    // half a pixel, left of a right label's start, is not under the label, but its own
                    // label would be drawn over this one.)
                    let blocked = side == .right
                        ? markers[(last + 1)...].first.map { $0.minX <= box.maxX } ?? false
                        : markers[..<first].last.map { $0.maxX >= box.minX } ?? false
                    guard !blocked else { continue }
                    result.append(Choice(first: first, last: last, side: side, text: label, x: x, anchor: anchor, box: box))
                }
            }
            return result
        }
        // best[last + 1]: the best ways to have labelled events 0...last, by the group that ends there.
        /// Events labelled, labels, then the least width spanned by groups (px), then labels on the right.
        struct Score: Comparable {
            var told = 0, labels = 0, span = 0.0, rights = 0
            static func < (a: Score, b: Score) -> Bool {
                (a.told, a.labels, -a.span, a.rights) < (b.told, b.labels, -b.span, b.rights)
            }
            func adding(_ b: Score) -> Score {
                Score(told: told + b.told, labels: labels + b.labels, span: span + b.span, rights: rights + b.rights)
            }
        }
        struct Way { var score: Score; var choice: Choice; var previous: Int? }
        var ways: [Way] = []
        var ending: [[Int]] = Array(repeating: [], count: count + 1)  // indices into `ways`, by next first event
        var best: [Int?] = Array(repeating: nil, count: count + 1)
        func score(_ choice: Choice) -> Score {
            let span = xs[choice.last] - xs[choice.first]
            return switch choice.side {
            case .none: Score(span: span)
            case .right: Score(told: choice.last - choice.first + 1, labels: 1, span: span, rights: 1)
            case .left: Score(told: choice.last - choice.first + 1, labels: 1, span: span)
            }
        }
        for first in 0..<count {
            let before = first == 0 ? [nil] : ending[first].map { Optional($0) }
            guard !before.isEmpty else { continue }
            for choice in choices(from: first) {
                var chosen: (score: Score, previous: Int?)?
                for previous in before {
                    let earlier = previous.map { ways[$0] }
                    if choice.side == .left, let box = choice.box, let theirs = earlier?.choice.box,
                       earlier?.choice.side == .right, box.intersects(theirs.widened(by: spacing)) { continue }
                    let total = (earlier?.score ?? Score()).adding(score(choice))
                    if chosen == nil || total > chosen!.score { chosen = (total, previous) }
                }
                guard let chosen else { continue }
                // Of the ways ending in the same group with the same label on its right, only the best matters.
                ways.append(Way(score: chosen.score, choice: choice, previous: chosen.previous))
                ending[choice.last + 1].append(ways.count - 1)
                if best[choice.last + 1].map({ ways[$0].score < chosen.score }) ?? true { best[choice.last + 1] = ways.count - 1 }
            }
            // Ways to the same end without a label on its right are alike for what follows: keep the best.
            let unreaching = ending[first + 1].filter { ways[$0].choice.side != .right }
            if let kept = unreaching.max(by: { ways[$0].score < ways[$1].score || (ways[$0].score == ways[$1].score && $0 > $1) }) {
                ending[first + 1] = ending[first + 1].filter { $0 == kept || ways[$0].choice.side == .right }
            }
        }
        var labels: [(text: String, x: Double, anchor: String, box: PlotLabelBox)] = []
        var unlabelled = 0
        var step = best[count]
        while let index = step {
            let choice = ways[index].choice
            if let box = choice.box { labels.append((choice.text, choice.x, choice.anchor, box)) } else {
                unlabelled += choice.last - choice.first + 1
            }
            step = ways[index].previous
        }
        return (labels.reversed(), unlabelled)
    }

    /// The offset of a phase's markers from the lower panel's top, px.
    static func row(_ phase: ShakeEvent.Phase) -> Double {
        switch phase {
        case .began: 16
        case .ended: 38
        case .cancelled: 60
        }
    }

    /// The label of a group of events of one phase, in order of time: `began 8.40 s`,
    /// `cancelled 3.10 s (gap)`, or `3 began, 10.00 to 10.40 s` (with the reasons of cancellation,
    /// once each, after it).
    static func text(_ group: ArraySlice<ShakeEvent>) -> String {
        guard let first = group.first, let last = group.last else { return "" }
        var reasons: [String] = []
        for reason in group.compactMap(\.cancellationReason) where !reasons.contains(reason.rawValue) {
            reasons.append(reason.rawValue)
        }
        let because = reasons.isEmpty ? "" : " (" + reasons.joined(separator: ", ") + ")"
        let from = FixedDecimals.format(first.time, decimals: 2), to = FixedDecimals.format(last.time, decimals: 2)
        if group.count == 1 { return first.phase.rawValue + " " + from + " s" + because }
        return "\(group.count) \(first.phase.rawValue), " + (from == to ? "at \(from) s" : "\(from) to \(to) s") + because
    }

    /// The width of a label's text, px (as `PlotLabelBox` measures it, halo excluded).
    static func width(_ text: String) -> Double {
        Double(text.count) * PlotLabelBox.characterWidth * size
    }
}

extension PlotLabelBox {
    /// The box grown by `margin` px on every side.
    func widened(by margin: Double) -> PlotLabelBox {
        PlotLabelBox(minX: minX - margin, maxX: maxX + margin, minY: minY - margin, maxY: maxY + margin)
    }
}
