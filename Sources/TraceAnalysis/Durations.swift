/// One app's measured launches or resumes, for ``DurationStats``' exact nearest-rank percentiles without holding
/// them all: kept in memory up to ``limit``, then written to a temporary file (a ``SpillFile`` of its own) in chunks
/// of raw values, and the percentiles found by a radix selection over the file (four passes of 16 bits each, per
/// percentile). An app that launched or resumed millions of times costs a few chunks' worth of memory.
struct Durations {
    /// How many values are kept in memory before they go to the file, and how many a chunk holds.
    let limit: Int
    /// The folder of the file (nil: `$TMPDIR`).
    private let folder: String?
    private var values: [Double] = []
    private var file: SpillFile?
    private var chunks: [SpillFile.Segment] = []
    private(set) var count = 0
    private var minimum = Double.infinity
    private var maximum = -Double.infinity

    init(limit: Int = 1 << 16, folder: String? = nil) {
        self.limit = max(1, limit)
        self.folder = folder
    }

    mutating func append(_ value: Double) {
        values.append(value)
        count += 1
        minimum = min(minimum, value)
        maximum = max(maximum, value)
        if values.count >= limit { writeChunk() }
    }

    /// Writes the values in memory to the file; when it cannot be made or written, they stay in memory.
    private mutating func writeChunk() {
        do {
            let file = try self.file ?? SpillFile(folder: folder)
            self.file = file
            var bytes: [UInt8] = []
            bytes.reserveCapacity(values.count * 8)
            for value in values { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 } }
            chunks.append(try file.append(bytes))
            values.removeAll(keepingCapacity: true)
        } catch {
            // Kept in memory: the figures stay exact, only the memory bound is lost.
        }
    }

    /// The figures; nil when there is no value.
    func stats(overBudget: Int) -> DurationStats? {
        guard count > 0 else { return nil }
        guard !chunks.isEmpty else { return DurationStats(values, overBudget: overBudget) }
        func rank(_ p: Double) -> Double {
            let rank = Int((p / 100 * Double(count)).rounded(.up))
            return Self.value(select(rank: min(max(rank, 1), count)))
        }
        return DurationStats(
            count: count, minMs: minimum, p50Ms: rank(50), p90Ms: rank(90), p99Ms: rank(99), maxMs: maximum,
            overBudget: overBudget)
    }

    /// The key of the `rank`-th smallest value (1-based), 16 bits at a time from the top.
    private func select(rank: Int) -> UInt64 {
        var prefix: UInt64 = 0
        var remaining = rank
        for shift in stride(from: 48, through: 0, by: -16) {
            var histogram = [Int](repeating: 0, count: 1 << 16)
            // Smart shifts: at the first pass, `>> 64` is 0 for every key, so all of them count.
            let high = prefix >> UInt64(shift + 16)
            forEachKey { key in
                if key >> UInt64(shift + 16) == high {
                    histogram[Int(truncatingIfNeeded: key >> UInt64(shift)) & 0xFFFF] += 1
                }
            }
            var digit = 0
            while remaining > histogram[digit] {
                remaining -= histogram[digit]
                digit += 1
            }
            prefix |= UInt64(digit) << UInt64(shift)
        }
        return prefix
    }

    private func forEachKey(_ body: (UInt64) -> Void) {
        if let file {
            for chunk in chunks {
                file.read(chunk).withUnsafeBytes { bytes in
                    for offset in stride(from: 0, to: bytes.count, by: 8) {
                        let bits = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                        body(Self.key(Double(bitPattern: bits)))
                    }
                }
            }
        }
        for value in values { body(Self.key(value)) }
    }

    /// A key that orders as the values do (negative values below positive ones).
    static func key(_ value: Double) -> UInt64 {
        let bits = value.bitPattern
        return bits >> 63 == 1 ? ~bits : bits | 1 << 63
    }

    static func value(_ key: UInt64) -> Double { Double(bitPattern: key >> 63 == 1 ? key & ~(1 << 63) : ~key) }
}
