import Testing
import ShakeUndo

@Suite struct FeedbackCenterTests {
    @Test func deliveryNeedsAPreparationAndUsesItUp() throws {
        let log = RecordingSink.Log()
        let center = try FeedbackCenter(sinks: [RecordingSink("screen", modes: [.visual], log: log)])
        #expect(center.deliver(.selection, at: 0, initiatedByUser: true) == .notPrepared)
        #expect(log.entries.isEmpty)
        center.prepare()
        #expect(center.isPrepared)
        #expect(center.deliver(.selection, at: 1, initiatedByUser: true) == .delivered([.visual]))
        #expect(!center.isPrepared)
        #expect(center.deliver(.selection, at: 2, initiatedByUser: true) == .notPrepared)
        #expect(log.entries == ["screen prepare", "screen selection"])
    }

    // Defect: a time earlier than the last delivery (a new reader's times start at 0 again)
    // counted as within the interval, and every feedback was refused until the new clock
    // caught up with the old one: 10 s of silent shake to undo after a reconnect at 10 s.
    @Test func aClockThatStartsAgainIsNotRateLimited() throws {
        let log = RecordingSink.Log()
        let center = try FeedbackCenter(sinks: [RecordingSink("screen", modes: [.visual], log: log)])
        center.prepare()
        #expect(center.deliver(.notificationSuccess, at: 10, initiatedByUser: true) == .delivered([.visual]))
        center.prepare()
        #expect(center.deliver(.notificationSuccess, at: 1, initiatedByUser: true) == .delivered([.visual]))
        // The new clock's deliveries are limited among themselves.
        center.prepare()
        #expect(center.deliver(.notificationSuccess, at: 1.2, initiatedByUser: true) == .rateLimited(nextAllowedTime: 1.5))
        #expect(log.entries == ["screen prepare", "screen notification success", "screen prepare",
                                "screen notification success", "screen prepare"])
    }

    /// A NaN time is no time: delivered, but the next delivery is still limited by the last
    /// finite one (kept, the NaN had let 1.1 through 0.1 s after 1.0).
    @Test func aTimeThatIsNotFiniteDoesNotOpenTheRateLimit() throws {
        let center = try FeedbackCenter(sinks: [RecordingSink("screen", modes: [.visual])])
        center.prepare()
        #expect(center.deliver(.selection, at: 1.0, initiatedByUser: true) == .delivered([.visual]))
        center.prepare()
        #expect(center.deliver(.selection, at: .nan, initiatedByUser: true) == .delivered([.visual]))
        center.prepare()
        #expect(center.deliver(.selection, at: 1.1, initiatedByUser: true) == .rateLimited(nextAllowedTime: 1.5))
    }

    @Test func everyModeIsReachedAtOnceInSinkOrder() throws {
        let log = RecordingSink.Log()
        let center = try FeedbackCenter(sinks: [
            RecordingSink("motor", modes: [.haptic], log: log),
            RecordingSink("speaker", modes: [.audible], log: log),
            RecordingSink("screen", modes: [.visual], log: log),
        ])
        #expect(center.modes == Set(FeedbackMode.allCases))
        center.prepare()
        #expect(center.deliver(.notificationSuccess, at: 0, initiatedByUser: true) == .delivered(Set(FeedbackMode.allCases)))
        #expect(log.entries == [
            "motor prepare", "speaker prepare", "screen prepare",
            "motor notification success", "speaker notification success", "screen notification success",
        ])
    }

    static let refused: [(modes: [Set<FeedbackMode>], error: FeedbackConfigurationError)] = [
        ([], .noModes),
        ([[]], .noModes),
        ([[.haptic]], .hapticAlone),
        ([[.haptic], [.haptic]], .hapticAlone),
    ]

    @Test(arguments: refused)
    func hapticAloneOrNothingIsRefused(modes: [Set<FeedbackMode>], error: FeedbackConfigurationError) {
        let sinks = modes.enumerated().map { RecordingSink("sink\($0.offset)", modes: $0.element) }
        #expect(throws: error) { try FeedbackCenter(sinks: sinks) }
    }

    static let accepted: [[Set<FeedbackMode>]] = [
        [[.visual]], [[.haptic], [.visual]], [[.haptic, .audible]], [[.visual, .audible, .haptic]],
    ]

    @Test(arguments: accepted)
    func hapticPairedWithVisualOrAudibleIsAccepted(modes: [Set<FeedbackMode>]) throws {
        let sinks = modes.enumerated().map { RecordingSink("sink\($0.offset)", modes: $0.element) }
        let center = try FeedbackCenter(sinks: sinks)
        #expect(center.modes == modes.reduce(Set()) { $0.union($1) })
    }

    @Test func negativeIntervalIsRefused() {
        #expect(throws: FeedbackConfigurationError.invalidInterval(-1)) {
            try FeedbackCenter(sinks: [RecordingSink("screen", modes: [.visual])], minimumIntervalSeconds: -1)
        }
    }

    @Test func sameTypeIsRateLimitedPerType() throws {
        let log = RecordingSink.Log()
        let center = try FeedbackCenter(sinks: [RecordingSink("screen", modes: [.visual], log: log)])
        center.prepare()
        #expect(center.deliver(.notificationSuccess, at: 10.0, initiatedByUser: true) == .delivered([.visual]))
        center.prepare()
        #expect(center.deliver(.notificationSuccess, at: 10.3, initiatedByUser: true)
            == .rateLimited(nextAllowedTime: 10.5))
        #expect(center.isPrepared)  // a refused delivery does not use the preparation up
        #expect(center.deliver(.impactLight, at: 10.3, initiatedByUser: true) == .delivered([.visual]))
        center.prepare()
        #expect(center.deliver(.notificationSuccess, at: 10.5, initiatedByUser: true) == .delivered([.visual]))
        #expect(log.entries.filter { !$0.hasSuffix("prepare") } == [
            "screen notification success", "screen impact light", "screen notification success",
        ])
    }

    @Test func feedbackNotInitiatedByTheUserIsRefused() throws {
        let log = RecordingSink.Log()
        let center = try FeedbackCenter(sinks: [RecordingSink("screen", modes: [.visual], log: log)])
        center.prepare()
        #expect(center.deliver(.notificationWarning, at: 0, initiatedByUser: false) == .notUserInitiated)
        #expect(log.entries == ["screen prepare"])
    }

    @Test func terminalSinkWritesOneLinePerFeedback() {
        var lines: [String] = []
        let sink = TerminalFeedbackSink(output: { lines.append($0) })
        sink.prepare()
        sink.deliver(.notificationSuccess)
        sink.deliver(.impactMedium)
        #expect(lines == ["[feedback] visual+audible: notification success", "[feedback] visual+audible: impact medium"])
    }

    struct BellCase: Sendable, CustomTestStringConvertible {
        var modes: Set<FeedbackMode>
        var ringsBell: Bool
        var line: String
        var testDescription: String { "\(FeedbackMode.describe(modes)) bell \(ringsBell)" }
    }

    static let bellCases = [
        BellCase(modes: [.visual, .audible], ringsBell: true, line: "[feedback] visual+audible: selection\u{07}"),
        BellCase(modes: [.visual, .audible], ringsBell: false, line: "[feedback] visual+audible: selection"),
        BellCase(modes: [.visual], ringsBell: true, line: "[feedback] visual: selection"),
        BellCase(modes: [.haptic, .visual, .audible], ringsBell: false, line: "[feedback] visual+audible+haptic: selection"),
    ]

    @Test(arguments: bellCases)
    func terminalSinkRingsTheBellOnlyWhenAskedAndAudible(_ bell: BellCase) {
        var lines: [String] = []
        let sink = TerminalFeedbackSink(modes: bell.modes, ringsBell: bell.ringsBell, logsPreparation: true) {
            lines.append($0)
        }
        sink.prepare()
        sink.deliver(.selection)
        #expect(lines == ["[feedback] prepare \(FeedbackMode.describe(bell.modes))", bell.line])
    }

    @Test func everyTypeHasItsOwnWords() {
        let words = FeedbackType.allCases.map(\.description)
        #expect(Set(words).count == FeedbackType.allCases.count)
        #expect(FeedbackType.notificationSuccess.description == "notification success")
        #expect(FeedbackType.impactHeavy.description == "impact heavy")
    }

    /// The rules are checked in their documented order: feedback for something the user did not
    /// do is refused as such, prepared or not.
    @Test func notUserInitiatedIsCheckedFirst() throws {
        let center = try FeedbackCenter(sinks: [RecordingSink("screen", modes: [.visual])])
        #expect(center.deliver(.selection, at: 0, initiatedByUser: false) == .notUserInitiated)
        center.prepare()
        #expect(center.deliver(.selection, at: 1, initiatedByUser: false) == .notUserInitiated)
        #expect(center.isPrepared)
    }

    /// An interval of 0 is accepted: no rate limit at all.
    @Test func aZeroIntervalIsNoLimit() throws {
        let center = try FeedbackCenter(sinks: [RecordingSink("screen", modes: [.visual])], minimumIntervalSeconds: 0)
        center.prepare()
        #expect(center.deliver(.selection, at: 1, initiatedByUser: true) == .delivered([.visual]))
        center.prepare()
        #expect(center.deliver(.selection, at: 1, initiatedByUser: true) == .delivered([.visual]))
    }
}
