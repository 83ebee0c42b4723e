import Dispatch
import Foundation
import ShakeIIO
import Synchronization

/// Stops a reader on SIGINT, SIGTERM or SIGHUP (the terminal or SSH session closing) while
/// installed, so the recording is finished as on Ctrl-C; restores default handling at `remove()`.
final class SignalStopper {
    private final class Received: Sendable {
        let signal = Mutex<Int32?>(nil)
    }

    private let sources: [any DispatchSourceSignal]
    private let received = Received()

    convenience init(stopping reader: AccelerometerReader) {
        self.init { reader.stop() }
    }

    convenience init(stopping reader: ReconnectingAccelerometerReader) {
        self.init { reader.stop() }
    }

    init(stop: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "shake.signals")
        var sources: [any DispatchSourceSignal] = []
        for number in Self.signals {
            Glibc.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [received] in
                received.signal.withLock { $0 = number }
                stop()
            }
            source.resume()
            sources.append(source)
        }
        self.sources = sources
    }

    /// The signal that stopped the reader, if any.
    var signal: Int32? { received.signal.withLock { $0 } }

    func remove() {
        for source in sources { source.cancel() }
        for number in Self.signals { Glibc.signal(number, SIG_DFL) }
    }

    /// The signals that stop the reader.
    static let signals = [SIGINT, SIGTERM, SIGHUP]
}
