/// Something that gives feedback in one or more modes: a vibration motor driver, a sound player,
/// an on-screen flash, a terminal line.
///
/// Sinks are driven by a `FeedbackCenter`, always on the center's isolation domain: `prepare()`
/// shortly before feedback is expected (when a shake begins), then `deliver(_:)`.
public protocol FeedbackSink: AnyObject {
    /// The modes this sink reaches. Read once, when the `FeedbackCenter` is created.
    var modes: Set<FeedbackMode> { get }
    /// Get ready to deliver soon (spin up a motor, open an audio device), so the feedback is not
    /// late. May be called again before a delivery; should be cheap.
    func prepare()
    /// Give the feedback now.
    func deliver(_ type: FeedbackType)
}
