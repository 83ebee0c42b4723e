// TEMPORARY: minimal canonical-CSV reading so the CLI runs while the real streaming reader is
// developed on branch `csv`. Deleted when that lands.
import Foundation
import ShakeDetection

public struct LabeledSample: Sendable, Hashable {
    public var sample: Sample
    public var isShake: Bool?
    public init(sample: Sample, isShake: Bool?) { self.sample = sample; self.isShake = isShake }
}

public struct CSVImportOptions: Sendable { public static let canonical = CSVImportOptions() }

public struct RecordingError: Error, CustomStringConvertible {
    public var description: String
}

public struct RecordingReader {
    public let path: String
    public private(set) var metadata: [(key: String, value: String)] = []
    public private(set) var hasLabels = false
    private var rows: [LabeledSample] = []
    private var index = 0

    public init(path: String, options: CSVImportOptions = .canonical) throws {
        self.path = path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw RecordingError(description: "\(path): cannot read file")
        }
        var sawHeader = false
        for (n, line) in text.split(separator: "\n").enumerated() {
            if line.hasPrefix("#") {
                let parts = line.dropFirst().split(separator: ":", maxSplits: 1)
                if parts.count == 2 {
                    metadata.append((String(parts[0]).trimmingCharacters(in: .whitespaces),
                                     String(parts[1]).trimmingCharacters(in: .whitespaces)))
                }
                continue
            }
            if !sawHeader { sawHeader = true; hasLabels = line.split(separator: ",").count > 4; continue }
            let f = line.split(separator: ",").compactMap { Double($0) }
            guard f.count >= 4 else { throw RecordingError(description: "\(path):\(n + 1): bad row") }
            rows.append(LabeledSample(sample: Sample(time: f[0], x: f[1], y: f[2], z: f[3]),
                                      isShake: f.count > 4 ? f[4] == 1 : nil))
        }
    }

    public mutating func next() throws -> LabeledSample? {
        guard index < rows.count else { return nil }
        defer { index += 1 }
        return rows[index]
    }
}
