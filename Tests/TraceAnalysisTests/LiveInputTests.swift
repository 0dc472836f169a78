import Foundation
import Testing

@testable import TraceAnalysis

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where live lines come from: bytes pushed in as they arrive, pipes, and files followed like `tail -F`.
@Suite("Live input")
struct LiveInputTests {
    // MARK: Splitting pushed bytes

    private static func split(_ chunks: [[UInt8]], maxLine: Int = 64) -> ([[UInt8]], Int) {
        var splitter = LineSplitter(maximumLineLength: maxLine)
        var out: [[UInt8]] = []
        for chunk in chunks { chunk.withUnsafeBytes { splitter.feed($0) { line, _ in out.append(Array(line)) } } }
        splitter.finish { line, _ in out.append(Array(line)) }
        return (out, splitter.truncatedLineCount)
    }

    /// However the bytes arrive, the lines are the ones the batch reader reads.
    @Test func pushedBytesSplitLikeTheBatchReader() throws {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<50 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(generator.next() % 40) {
                let length = Int(generator.next() % 50)
                bytes += (0..<length).map { _ in UInt8(0x20 + generator.next() % 90) }
                bytes += generator.next() % 4 == 0 ? [0x0D, 0x0A] : [0x0A]
            }
            if generator.next() % 2 == 0 { bytes += Array("no newline".utf8) }
            var reader = LineReader(bytes: bytes, chunkSize: 16, maximumLineLength: 64)
            var expected: [[UInt8]] = []
            try reader.forEachLine { line, _ in expected.append(Array(line)) }
            var chunks: [[UInt8]] = []
            var offset = 0
            while offset < bytes.count {
                let size = 1 + Int(generator.next() % 30)
                chunks.append(Array(bytes[offset..<min(bytes.count, offset + size)]))
                offset += size
            }
            #expect(Self.split(chunks).0 == expected)
        }
    }

    @Test func anUnfinishedLongLineIsCutOnceAndTheRestSkipped() {
        let long = [UInt8](repeating: 0x41, count: 100)
        let (out, truncated) = Self.split(
            [Array(long[..<40]), Array(long[40...]) + [0x0A], Array("next\r\n".utf8)], maxLine: 32)
        #expect(out.map(\.count) == [32, 4])
        #expect(out[1] == Array("next".utf8))
        #expect(truncated == 1)
    }

    // MARK: Pipes

    /// The batch reader hands out a line as soon as it arrives on a pipe, not when a chunk is full.
    @Test func theBatchReaderHandsOutALineAsSoonAsItArrives() throws {
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        let seen = DispatchSemaphore(value: 0)
        let closer = Thread {
            writer.write(Data("first line\n".utf8))
            // If the reader waited for a full chunk it would never see the line: give up after 5 s.
            _ = seen.wait(timeout: .now() + 5)
            writer.write(Data("second line\n".utf8))
            try? writer.close()
        }
        closer.start()
        var reader = LineReader(fd: pipe.fileHandleForReading.fileDescriptor)
        var lines: [String] = []
        let started = Date()
        try reader.forEachLine { line, _ in
            lines.append(String(decoding: line, as: UTF8.self))
            if lines.count == 1 { seen.signal() }
        }
        #expect(lines == ["first line", "second line"])
        #expect(Date().timeIntervalSince(started) < 4)
    }

    /// A gzip stream whose first read is one byte is still recognised.
    @Test func gzipOnAPipeIsRecognisedWhenItsFirstByteComesAlone() throws {
        let plain = Array("2013-10-13 12:24:09.948 App[1:60b] applicationDidBecomeActive:\n".utf8)
        let zipped = try BatchTests.gzip(plain)
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        let feeder = Thread {
            writer.write(Data(zipped[..<1]))
            usleep(100_000)
            writer.write(Data(zipped[1...]))
            try? writer.close()
        }
        feeder.start()
        var reader = LineReader(fd: pipe.fileHandleForReading.fileDescriptor)
        var lines: [[UInt8]] = []
        try reader.forEachLine { line, _ in lines.append(Array(line)) }
        let compressed = reader.isCompressed
        #expect(compressed)
        #expect(lines == [Array(plain.dropLast())])
    }

    /// Findings, notices and the ending of a `LiveReader` running on its own thread.
    final class Run: @unchecked Sendable {
        private let lock = NSLock()
        private var findings: [LiveFinding] = []
        private var notices: [LiveReader.Notice] = []
        private var ending: LiveReader.Ending?
        private var report: AnalysisReport?
        let stop: (read: Int32, write: Int32)

        init() {
            var ends: [Int32] = [-1, -1]
            _ = pipe(&ends)
            stop = (ends[0], ends[1])
        }

        deinit {
            close(stop.read)
            close(stop.write)
        }

        func start(_ source: LiveReader.Source, analyzer: Analyzer, idleMs: Double = 5000) {
            let thread = Thread {
                let live = LiveAnalysis(analyzer: analyzer, name: "followed") { finding in
                    self.lock.withLock { self.findings.append(finding) }
                }
                let reader = LiveReader(idleMilliseconds: idleMs, pollMilliseconds: 20, stop: self.stop.read) {
                    notice in
                    self.lock.withLock { self.notices.append(notice) }
                }
                let ending = reader.run(source, into: live)
                let report = live.finish()
                self.lock.withLock { (self.ending, self.report) = (ending, report) }
            }
            thread.start()
        }

        var told: [LiveFinding] { lock.withLock { findings } }
        var said: [LiveReader.Notice] { lock.withLock { notices } }
        var result: (LiveReader.Ending, AnalysisReport)? {
            lock.withLock { ending.flatMap { ending in report.map { (ending, $0) } } }
        }

        func stopReading() {
            var byte: UInt8 = 1
            _ = write(stop.write, &byte, 1)
        }

        /// Waits (up to 5 s) until `condition` holds.
        @discardableResult
        func wait(_ condition: (Run) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline {
                if condition(self) { return true }
                usleep(10_000)
            }
            return condition(self)
        }
    }

    static let session = ExampleCapture(
        """
        0.000 App Delegate: didFinishLaunchingWithOptions
        0.100 App Delegate: applicationDidBecomeActive
        5.000 App Delegate: applicationWillResignActive
        5.010 App Delegate: applicationDidEnterBackground
        """
    ).text.split(separator: "\n").map { String($0) + "\n" }

    @Test func aPipeIsReadUntilItsEndWithIdlePauses() throws {
        let pipe = Pipe()
        let run = Run()
        run.start(
            .descriptor(pipe.fileHandleForReading.fileDescriptor), analyzer: try TestSupport.analyzer(), idleMs: 150)
        let writer = pipe.fileHandleForWriting
        writer.write(
            Data(
                ExampleCapture(
                    "0.000 App Delegate: applicationWillResignActive\n3.000 App Delegate: applicationDidBecomeActive"
                ).text.utf8))
        // No more lines: only the idle pause (150 ms, past the 1 s alert gap after a second one) decides.
        #expect(run.wait { $0.told.count == 1 })
        #expect(run.told.first?.trigger == .idle)
        try writer.close()
        #expect(run.wait { $0.result != nil })
        #expect(run.result?.0 == .endOfInput)
        #expect(run.result?.1.processes.first?.episodes.map(\.scenario) == [.interruption])
    }

    @Test func aReaderIsStoppedByItsStopDescriptor() throws {
        let pipe = Pipe()
        let run = Run()
        run.start(.descriptor(pipe.fileHandleForReading.fileDescriptor), analyzer: try TestSupport.analyzer())
        pipe.fileHandleForWriting.write(Data(Self.session[0...1].joined().utf8))
        #expect(run.wait { $0.told.count == 2 })
        run.stopReading()
        #expect(run.wait { $0.result != nil })
        #expect(run.result?.0 == .stopped)
        #expect(run.result?.1.inputs.first?.lines == 2)
    }

    // MARK: Following a file

    private static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private static func append(_ text: String, to url: URL) throws {
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        handle.write(Data(text.utf8))
        try handle.close()
    }

    /// `tail -F`: waits for the file, reads it from its start, follows its growth, reads it again when truncated,
    /// and the new file when it is rotated; line numbers count on.
    @Test func aFollowedFileSurvivesTruncationAndRotation() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("app.log")
        let run = Run()
        run.start(.file(path.path), analyzer: try TestSupport.analyzer())
        #expect(run.wait { $0.said == [.waiting(path: path.path)] })

        // Appears with a launch; grows by an unfinished line, then its end.
        try Data(Self.session[0...1].joined().utf8).write(to: path)
        #expect(run.wait { $0.told.count == 2 })
        try Self.append(String(Self.session[2].dropLast(8)), to: path)
        usleep(100_000)
        try Self.append(String(Self.session[2].suffix(8)) + Self.session[3], to: path)
        #expect(run.wait { $0.told.count == 3 })
        #expect(run.told.last?.line == 4)

        // Truncated and rewritten shorter: read again from its start, as lines 5 and on.
        try Data().write(to: path)
        #expect(run.wait { $0.said.last == .truncated(path: path.path, line: 4) })
        try Self.append(
            ExampleCapture(
                "9.000 App Delegate: applicationWillEnterForeground\n9.020 App Delegate: applicationDidBecomeActive"
            ).text, to: path)
        #expect(run.wait { $0.told.count == 4 })
        #expect(run.told.last?.line == 6)

        // Rotated: a line appended to the old file just before it is moved is read first.
        try Self.append(ExampleCapture("12.000 App Delegate: applicationWillResignActive").text, to: path)
        try FileManager.default.moveItem(at: path, to: folder.appendingPathComponent("app.log.1"))
        try Data(ExampleCapture("12.005 App Delegate: applicationDidEnterBackground").text.utf8).write(to: path)
        #expect(run.wait { $0.said.last == .rotated(path: path.path, line: 7) })
        #expect(run.wait { $0.told.count == 5 })
        #expect(run.told.last?.line == 8)

        run.stopReading()
        #expect(run.wait { $0.result != nil })
        let (ending, report) = try #require(run.result)
        #expect(ending == .stopped)
        #expect(report.inputs.first?.lines == 8)
        #expect(
            report.processes.first?.episodes.map(\.scenario) == [
                .launch, .enterBackground, .returnToForeground, .enterBackground,
            ])
        LiveAnalysisTests.expectToldOnce(run.told, match: report)
    }

    @Test func aFollowedPathThatIsAFolderFails() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = Run()
        run.start(.file(folder.path), analyzer: try TestSupport.analyzer())
        #expect(run.wait { $0.result != nil })
        guard case .failed(let error)? = run.result?.0 else {
            Issue.record("did not fail: \(String(describing: run.result?.0))")
            return
        }
        #expect(String(describing: error).contains("cannot open"))
        #expect(run.result?.1.exitStatus == .inputProblem)
    }
}
