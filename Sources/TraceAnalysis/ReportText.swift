/// Report text written as bytes, for the reports made of many short pieces per process (the text report's episode
/// lines, the JUnit test cases): literals, log text through an escaper, numbers, times of day and durations are
/// stored straight into one buffer (``OutputBytes``), with no String made, grown and joined for each piece. Built
/// with String interpolation, a text report's episode line cost about 22,000 instructions, a JUnit test case about
/// 65,000, a batch's reports 20 % of its run.
struct ReportText: ~Copyable {
    private var output = OutputBytes(capacity: 1024)

    /// Bytes written so far (since the last ``take()``).
    var count: Int { output.count }

    mutating func append(_ text: StaticString) { output.append(text) }

    mutating func append(_ text: String) { output.append(text) }

    /// `text` with each scalar `escaper` replaces written as its replacement.
    mutating func append(_ text: String, escaping escaper: ScalarEscaper) { escaper.append(text, to: &output) }

    mutating func append(_ value: Int) {
        let text = output.reserve(JSONWriter.decimalCapacity)
        output.commit(JSONWriter.writeDecimal(value, at: text))
    }

    /// `ms` as ``DurationFormat/text(_:)`` writes it: `1.5 s`, `480 ms`.
    mutating func appendDuration(_ ms: Double) {
        let text = output.reserve(DurationFormat.capacity)
        output.commit(DurationFormat.write(ms, at: text))
    }

    /// ``Timestamp/timeOfDay``: `12:24:09.948`.
    mutating func appendTimeOfDay(_ time: Timestamp) {
        let text = output.reserve(Timestamp.timeOfDayCapacity)
        output.commit(time.writeTimeOfDay(Timestamp.floorDivide(time.wallMicros, 86_400_000_000).1, at: text))
    }

    /// A process's span, as the text and JUnit reports show it: `lines 3–40`, then `separator`, its first and last
    /// times (`12:24:09.948 → 12:25:01.002`) when it has both.
    mutating func appendSpan(of process: ProcessReport, timesAfter separator: StaticString) {
        append("lines ")
        append(process.firstLine)
        append("–")
        append(process.lastLine)
        guard let first = process.firstTime, let last = process.lastTime else { return }
        append(separator)
        appendTimeOfDay(first)
        append(" → ")
        appendTimeOfDay(last)
    }

    mutating func appendSpaces(_ count: Int) {
        guard count > 0 else { return }
        output.reserve(count).update(repeating: UInt8(ascii: " "), count: count)
        output.commit(count)
    }

    /// Spaces after the text written since `start` (a ``count``) until it fills `width` columns, as
    /// `String.padding(_:)` pads it: columns are characters.
    mutating func pad(from start: Int, to width: Int) {
        appendSpaces(width - columns(from: start))
    }

    /// How many characters the text written since `start` is: its bytes when they are printable ASCII or an en
    /// dash (a line range, `L12–14`), each a character of its own; otherwise as a String counts them.
    func columns(from start: Int) -> Int {
        let bytes = UnsafeBufferPointer(start: output.end - (count - start), count: count - start)
        var columns = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x20 && byte < 0x7F {
                index += 1
            } else if byte == 0xE2 && index + 2 < bytes.count && bytes[index + 1] == 0x80 && bytes[index + 2] == 0x93 {
                index += 3
            } else {
                return String(decoding: bytes, as: UTF8.self).count
            }
            columns += 1
        }
        return columns
    }

    /// Drops the spaces the text ends with.
    mutating func trimTrailingSpaces() {
        var trimmed = 0
        while trimmed < count && (output.end - trimmed - 1).pointee == UInt8(ascii: " ") { trimmed += 1 }
        output.commit(-trimmed)
    }

    /// The bytes written, and an empty buffer (its room kept) to write on.
    mutating func take() -> [UInt8] {
        defer { output.removeAll() }
        return output.array
    }
}
