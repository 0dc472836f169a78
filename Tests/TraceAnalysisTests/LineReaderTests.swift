import Foundation
import NativeKit
import Testing

@testable import TraceAnalysis

@Suite("Reading lines")
struct LineReaderTests {
    /// The lines of `bytes` and how many were cut, read on the caller's thread and checked the same read ahead.
    private func lines(
        _ bytes: [UInt8], chunk: Int = 16, maxLine: Int = 64, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ([[UInt8]], Int) {
        let plain = try Self.read(bytes, chunk: chunk, maxLine: maxLine, readAhead: false)
        let ahead = try Self.read(bytes, chunk: chunk, maxLine: maxLine, readAhead: true)
        #expect(ahead == plain, "read ahead", sourceLocation: sourceLocation)
        return (plain.lines, plain.truncated)
    }

    private struct Read: Equatable {
        var lines: [[UInt8]] = []
        var cut: [Bool] = []
        var truncated = 0
        var lineCount = 0
        var byteCount: Int64 = 0
        var compressed: Int64 = 0
    }

    private static func read(_ bytes: [UInt8], chunk: Int, maxLine: Int, readAhead: Bool) throws -> Read {
        var reader = LineReader(bytes: bytes, chunkSize: chunk, maximumLineLength: maxLine, readAhead: readAhead)
        var read = Read()
        try reader.forEachLine { line, truncated in
            read.lines.append(Array(line))
            read.cut.append(truncated)
        }
        read.truncated = reader.truncatedLineCount
        read.lineCount = reader.lineCount
        read.byteCount = reader.byteCount
        read.compressed = reader.compressedByteCount
        return read
    }

    /// Read ahead on a thread of its own, a reader hands out the same lines, cut the same, with the same counts,
    /// whatever the chunks and the bound on a line: random lines of every length up to several chunks, CRLF, blank
    /// lines, and gzip.
    @Test func readingAheadChangesNothing() throws {
        var random = SplitMix64(seed: 0x9E37_79B9_7F4A_7C15)
        var bytes: [UInt8] = []
        for _ in 0..<400 {
            let length = Int(random.next() % 7 == 0 ? random.next() % 600 : random.next() % 90)
            bytes += (0..<length).map { _ in UInt8(0x20 + random.next() % 90) }
            bytes += random.next() % 5 == 0 ? [0x0D, 0x0A] : [0x0A]
        }
        bytes += Array("no newline at the end".utf8)
        let zipped = try BatchTests.gzip(bytes)
        for (chunk, maxLine) in [(16, 16), (17, 64), (100, 80), (4096, 512), (1 << 20, 1 << 16)] {
            let plain = try Self.read(bytes, chunk: chunk, maxLine: maxLine, readAhead: false)
            #expect(plain.lines.count == 401)
            #expect(try Self.read(bytes, chunk: chunk, maxLine: maxLine, readAhead: true) == plain, "\(chunk)")
            let inflated = try Self.read(zipped, chunk: chunk, maxLine: maxLine, readAhead: true)
            #expect(inflated.lines == plain.lines && inflated.truncated == plain.truncated, "gzip \(chunk)")
            #expect(inflated == (try Self.read(zipped, chunk: chunk, maxLine: maxLine, readAhead: false)))
            #expect(inflated.compressed == Int64(zipped.count))
        }
    }

    /// A read that fails, read ahead or not, throws after every line read before it, whatever the chunks (a gzip
    /// member whose check fails at its end: all its bytes are inflated first, and handed out); a caller that stops
    /// early ends the reading thread.
    @Test func readingAheadEndsOnAnErrorOrWhenTheCallerStops() throws {
        let many = Array(String(repeating: "a line\n", count: 10_000).utf8)
        let zipped = try BatchTests.gzip(many)
        let wrongLength = Array(zipped.dropLast(4)) + [1, 2, 3, 4]
        let wrongCheck = Array(zipped.dropLast(8)) + [1, 2, 3, 4] + Array(zipped.suffix(4))
        for readAhead in [false, true] {
            let folder = open("/", O_RDONLY)
            defer { close(folder) }
            var reader = LineReader(fd: folder, readAhead: readAhead)
            #expect(throws: LineReader.ReadError.self) { try reader.forEachLine { _, _ in } }
            let cases = [(wrongLength, 64), (wrongLength, 1 << 20), (wrongCheck, 64), (wrongCheck, 1 << 20)]
            for (corrupt, chunk) in cases {
                var lines = 0
                var gzip = LineReader(bytes: corrupt, chunkSize: chunk, readAhead: readAhead)
                #expect(throws: LineReader.ReadError.self) { try gzip.forEachLine { _, _ in lines += 1 } }
                #expect(lines == 10_000, "chunks of \(chunk), read ahead: \(readAhead)")
            }

            struct Enough: Error {}
            var stopping = LineReader(bytes: many, chunkSize: 64, readAhead: readAhead)
            var seen = 0
            #expect(throws: Enough.self) {
                try stopping.forEachLine { _, _ in
                    seen += 1
                    if seen == 3 { throw Enough() }
                }
            }
            #expect(seen == 3)
        }
    }

    /// Every line handed out has the keyword marks of its own bytes (``LineReader/marks``): it lies inside the
    /// marked bytes, and the search from the marks finds what a search of the line alone finds, in chunks of every
    /// size from 16 bytes (lines moved to the buffer's start between reads, or, read ahead, the buffer moved to the
    /// next chunk), with long lines cut, CRLF, and a last line without a newline. Read ahead, the marks are exact:
    /// each is where a literal begins.
    @Test(arguments: [false, true])
    func keywordMarksMatchASearchOfEachLine(readAhead: Bool) throws {
        let keywords = ["active", "background", "nib", "view", "terminated", "terminate", "8badf00d"]
        guard let search = LiteralSearch(keywords.map { Array($0.utf8) }) else {
            return  // no vectors here: the reader marks nothing and callers search each message
        }
        var random = SplitMix64(seed: 0x2545_F491_4F6C_DD1D)
        func next() -> Int { Int(random.next() % 1_000_000) }
        let pieces = keywords + ["Active", "VIEW", "vie", "termin", " ", "x", "did become ", "\r\n", "\n", "0x7f"]
        var text = ""
        for _ in 0..<3000 { text += pieces[next() % pieces.count] }
        text += "applicationDidBecomeActive"  // no newline at the end
        let bytes = Array(text.utf8)
        for chunk in [16, 17, 64, 100, 4096] {
            var reader = LineReader(bytes: bytes, chunkSize: chunk, maximumLineLength: 80, readAhead: readAhead)
            reader.markKeywords(search.handle)
            let marked = reader.marks
            #expect(marked != nil)
            guard let marks = marked else { continue }
            var checked = 0
            var outside = 0
            var exact = 0
            try reader.forEachLine { line, truncated in
                if let base = line.baseAddress {
                    let offset = marks.origin.distance(to: UnsafeRawPointer(base))
                    if offset < 0 || offset + line.count > marks.count { outside += 1 }
                    // Read ahead, the thread checks what its scan marks: a mark is where a literal begins (a line cut
                    // to the bound may have one marked that runs on past the cut).
                    if readAhead, !truncated, offset >= 0, offset + line.count <= marks.count {
                        for position in 0..<max(line.count - 2, 0) {
                            let bit = offset + position
                            guard marks.bits[bit >> 6] >> UInt64(bit & 63) & 1 == 1 else { continue }
                            if search.first(in: line, from: position)?.position != position {
                                Issue.record("chunk \(chunk): a mark at \(position) of a line with no literal there")
                            }
                            exact += 1
                        }
                    }
                }
                for start in [0, 1, 5] where start <= line.count {
                    let found = search.handle.first(in: line, from: start, marks: marks)
                    let plain = search.first(in: line, from: start)
                    if found?.literal != plain?.literal || found?.position != plain?.position {
                        Issue.record("chunk \(chunk), line \(String(decoding: line, as: UTF8.self)) from \(start)")
                    }
                    if plain != nil { checked += 1 }
                }
            }
            #expect(checked > 100)
            #expect(outside == 0, "chunk \(chunk)")
            #expect(!readAhead || exact > 100, "chunk \(chunk)")
        }
    }

    @Test func splitsLFAndCRLFAndKeepsALastLineWithoutNewline() throws {
        let (out, _) = try lines(Array("a\r\nbb\n\nccc".utf8))
        #expect(out.map { String(decoding: $0, as: UTF8.self) } == ["a", "bb", "", "ccc"])
    }

    @Test func linesSpanningChunksAreWhole() throws {
        let text = (0..<50).map { "line number \($0) with some text" }.joined(separator: "\n") + "\n"
        let (out, _) = try lines(Array(text.utf8), chunk: 16, maxLine: 128)
        #expect(out.count == 50)
        #expect(String(decoding: out[49], as: UTF8.self) == "line number 49 with some text")
    }

    @Test func longLinesAreCutAndCountedOnce() throws {
        let long = [UInt8](repeating: 0x41, count: 1000)
        let (out, truncated) = try lines(long + [0x0A] + Array("next\n".utf8), chunk: 16, maxLine: 32)
        #expect(out.count == 2)
        #expect(out[0].count == 32)
        #expect(String(decoding: out[1], as: UTF8.self) == "next")
        #expect(truncated == 1)
    }

    @Test func aLongLineWholeInsideOneChunkIsCutToo() throws {
        // The bound is on the line, not on where the reads fall: 200 bytes inside a 4 KiB chunk, CRLF or not.
        let long = [UInt8](repeating: 0x41, count: 200)
        let bytes = long + Array("\r\n".utf8) + long + [0x0A] + Array("next\n".utf8)
        let (out, truncated) = try lines(bytes, chunk: 4096, maxLine: 64)
        #expect(out.map(\.count) == [64, 64, 4])
        #expect(truncated == 2)
        // A line of exactly the bound followed by CRLF is whole.
        let (exact, none) = try lines(
            [UInt8](repeating: 0x42, count: 64) + Array("\r\n".utf8), chunk: 4096, maxLine: 64)
        #expect(exact.map(\.count) == [64] && none == 0)
    }

    @Test func invalidUTF8AndNULPassThrough() throws {
        let bytes: [UInt8] = [0xFF, 0xFE, 0x00, 0x41, 0x0A, 0xC3, 0x28]
        let (out, _) = try lines(bytes)
        #expect(out == [[0xFF, 0xFE, 0x00, 0x41], [0xC3, 0x28]])
    }

    @Test func emptyInputHasNoLines() throws {
        #expect(try lines([]).0.isEmpty)
        #expect(try lines([0x0A, 0x0A]).0.count == 2)
    }
}

@Suite("Line accounting")
struct LineAccountingTests {
    @Test func dictionaryDumpsAreContinuations() throws {
        let capture = """
            2013-10-13 12:24:09.948 App[1:60b] launchOptions: {
                UIApplicationLaunchOptionsURLKey = "app://x";
            }
            2013-10-13 12:24:09.950 App[1:60b] applicationDidBecomeActive:
            ** an annotation someone pasted
            \tan indented line after an unparsed one

            """
        let report = try TestSupport.analyzer().analyze(text: capture)
        let input = report.inputs[0]
        #expect(input.records == 2)
        #expect(input.continuationLines == 2)
        #expect(input.unparsedLines == 2)
        #expect(input.unparsedSamples == [5, 6])
        TestSupport.expectAccounted(input)
    }

    @Test func indentedLinesContinueTheRecordBefore() throws {
        let capture = """
             2013-11-06 14:43:24.413 BackgroundDemo[385:60b] applicationDidFinishLaunching
             ** I hit shoulder button to turn off the screen
             2013-11-06 14:43:24.435 BackgroundDemo[385:60b] state:
                 INSIDE
            """
        let input = try TestSupport.analyzer().analyze(text: capture).inputs[0]
        #expect(input.records == 2)
        #expect(input.unparsedLines == 1)  // same indentation as the records: an annotation, not a continuation
        #expect(input.continuationLines == 1)
        TestSupport.expectAccounted(input)
    }

    @Test func garbageIsCountedNotLost() throws {
        var bytes = Array("2013-10-13 12:24:09.948 App[1:60b] applicationDidBecomeActive:\n".utf8)
        bytes += [0xFF, 0x00, 0x1B, 0x5B, 0x33, 0x31, 0x6D, 0x0A]
        bytes += Array("2013-10-13 12:24:10.948 App[1:60b] applicationWillResignActive:\r\n".utf8)
        let report = try TestSupport.analyzer().analyze(text: String(decoding: bytes, as: UTF8.self))
        TestSupport.expectAccounted(report.inputs[0])
        #expect(report.inputs[0].records == 2)
        #expect(report.inputs[0].unparsedLines == 1)
        #expect(report.inputs[0].lifecycleEvents == 2)
    }

    @Test func processNamesWithSpacesAndDigits() throws {
        let capture = """
            2013-05-20 21:05:48.119 State Lab[12751:70b] application:didFinishLaunchingWithOptions:
            2013-07-01 18:06:07.038 7_1UIViewController[6617:907] -[ZHFirstSubViewController loadView]
            """
        let report = try TestSupport.analyzer().analyze(text: capture)
        #expect(report.processes.map(\.name) == ["State Lab", "7_1UIViewController"])
    }

    @Test func unreadableInputIsReportedAndOthersStillAnalysed() throws {
        let sample = TestSupport.samples.appendingPathComponent("slow-launch.log").path
        let report = try TestSupport.analyzer().analyze([.file("/nonexistent/capture.log"), .file(sample)])
        #expect(
            report.inputs[0].error == .cannotOpen(path: "/nonexistent/capture.log", reason: "No such file or directory")
        )
        #expect(report.processes.count == 1)
        #expect(report.exitStatus == .inputProblem)
    }
}
