import Foundation
import ShakeRecording
import Testing

/// Numbers in `--format json` are rounded to what they mean and written as the shortest decimal
/// of the rounded value, as the README says.
@Suite struct JSONNumberTests {
    /// Decimals the README promises for a key: seconds to the microsecond, hours to 6 decimals,
    /// ratios to 4, false shakes per hour, accelerations and frequencies to 3.
    static func decimals(forKey key: String) -> Int? {
        switch key {
        case "recall", "precision", "f1": 4
        case "false_per_hour": 3
        case "negative_hours": 6
        case "search_seconds": 1
        case _ where key.hasSuffix("_m_s2"): 3
        case _ where key.hasSuffix("_hz"): 3
        case _ where key.hasSuffix("_s"): 6
        default: nil
        }
    }

    /// Every number of pretty-printed JSON with the key it belongs to (for an array's elements,
    /// the array's key), as written.
    static func numbers(in json: String) -> [(key: String, text: String)] {
        var found: [(String, String)] = []
        var arrayKeys: [String] = []
        let pair = /^\s*"([^"]+)" : (.*?),?$/
        for line in json.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let match = line.wholeMatch(of: pair) {
                let key = String(match.1), value = String(match.2)
                if value == "[" { arrayKeys.append(key) }
                if value == "{" || value == "[" { continue }
                if value.first.map({ $0.isNumber || $0 == "-" }) == true { found.append((key, value)) }
            } else if trimmed.hasPrefix("]") {
                arrayKeys.removeLast()
            } else if let key = arrayKeys.last, trimmed.first.map({ $0.isNumber || $0 == "-" }) == true {
                found.append((key, trimmed.hasSuffix(",") ? String(trimmed.dropLast()) : trimmed))
            }
        }
        return found
    }

    static let commands: [[String]] = [
        ["evaluate", "--format", "json", "--list", CommittedFixture.path("mixed_100hz.csv"),
         CommittedFixture.path("shakes_100hz.csv")],
        ["replay", "--format", "json", "--explain", CommittedFixture.path("mixed_100hz.csv")],
        ["tune", "--format", "json", CommittedFixture.path("shakes_100hz.csv"),
         CommittedFixture.path("walking_hand_50hz.csv")],
    ]

    @Test(arguments: commands)
    func numbersAreRoundedToTheirUnitAndWrittenShortest(arguments: [String]) throws {
        let run = runShake(arguments)
        #expect(run.status == 0, "\(run.err)")
        _ = try JSONSerialization.jsonObject(with: Data(run.out.utf8))
        let numbers = Self.numbers(in: run.out)
        #expect(numbers.count > 20, "the output has numbers to check")
        var checked = 0
        for (key, text) in numbers {
            #expect(!text.contains("e") && !text.contains("E"), "\(key): \(text) is in exponent notation")
            let fraction = text.split(separator: ".", maxSplits: 1).dropFirst().first ?? ""
            #expect(!fraction.hasSuffix("0"), "\(key): \(text) is not the shortest decimal")
            guard let allowed = Self.decimals(forKey: key) else { continue }
            checked += 1
            #expect(fraction.count <= allowed, "\(key): \(text) has more than \(allowed) decimals")
        }
        #expect(checked > 10, "keys with a unit were found")
    }

    @Test(arguments: [
        (0.539215500000001, 6, "0.539216"), (1.2019607999999986, 6, "1.201961"), (0.00005, 6, "0.00005"),
        (-0.0000001, 6, "0"), (3.0, 4, "3"), (2.0 / 3, 4, "0.6667"), (-20.5250750743, 3, "-20.525"),
        (1_700_000_000.123456789, 6, "1700000000.123457"),
    ])
    func roundedNumberIsTheShortestDecimalOfTheRoundedValue(value: Double, decimals: Int, json: String) throws {
        let data = try JSONEncoder().encode([RoundedNumber(value, decimals: decimals)])
        #expect(String(decoding: data, as: UTF8.self) == "[" + json + "]")
    }

    /// Each unit keeps the decimals the README promises, no fewer: 2/3 of a unit written by each.
    @Test(arguments: [
        ("seconds", RoundedNumber.seconds(2.0 / 3), "0.666667"), ("hours", RoundedNumber.hours(2.0 / 3), "0.666667"),
        ("ratio", RoundedNumber.ratio(2.0 / 3), "0.6667"), ("perHour", RoundedNumber.perHour(2.0 / 3), "0.667"),
        ("hertz", RoundedNumber.hertz(2.0 / 3), "0.667"), ("acceleration", RoundedNumber.acceleration(2.0 / 3), "0.667"),
    ])
    func eachUnitKeepsItsDecimals(unit: String, number: RoundedNumber, json: String) throws {
        let data = try JSONEncoder().encode([number])
        #expect(String(decoding: data, as: UTF8.self) == "[" + json + "]", "\(unit)")
    }
}
