import Foundation
import Testing

@testable import TraceAnalysis

/// A batch analyses its first inputs while its folders are still being walked: the same inputs, in the same
/// order, the same reports and the same errors as a walk that ends before the first input is read.
@Suite("Streamed walk")
struct StreamedWalkTests {
    /// Names that sort differently as names and as paths (`a-b` < `a.b` < `a` + `/` < `a0`), nested folders,
    /// hidden files, files no glob takes, an empty file, one that is not gzip, a dangling link, an empty folder.
    static func tree() throws -> URL {
        let log = try BatchTests.sample("slow-launch.log")
        var files: [String: [UInt8]] = [
            "a/z.log": log, "a-b/z.log": log, "a.b/z.log": log, "a0/z.log": log, "A/z.log": log, "a.log": log,
            "a-b.log": log, "a/-.log": log, "a/ é.log": log, "a/0.log": log, "a/deep/er/x.txt": log,
            ".hidden/x.log": log, "a/.x.log": log, "a/shot.png": [0x89], "b/empty.log": [],
            "b/bad.log.gz": [0x1F, 0x8B, 0x08, 0x00, 0x01], "c.log.gz": try BatchTests.gzip(log),
        ]
        for index in 0..<40 { files["many/\(index % 7)/\(index).log"] = log }
        let root = try BatchTests.folder(files)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("empty/inner"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("b/dangling.log").path, withDestinationPath: "/nonexistent")
        return root
    }

    /// The order the walk used to list the inputs in: every file found, then sorted by the bytes of its path.
    static func sortedPaths(under root: String) throws -> [String] {
        let walker = FileManager.default.enumerator(atPath: root)
        var paths: [String] = []
        while let relative = walker?.nextObject() as? String {
            let path = root + "/" + relative
            var isFolder: ObjCBool = false
            let name = (relative as NSString).lastPathComponent
            if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            if exists && isFolder.boolValue { continue }
            if InputCollector.defaultIncludes.contains(where: {
                InputCollector.matches($0, name: name, relativePath: "")
            }) {
                paths.append(path)
            }
        }
        return paths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    @Test func theWalkHandsOverTheInputsInByteOrderOfTheirPaths() throws {
        let root = try Self.tree()
        defer { try? FileManager.default.removeItem(at: root) }
        var streamed: [InputSource] = []
        try InputCollector().collect([root.path, "-", root.path + "/a"]) { streamed.append($0) }
        let expected = try Self.sortedPaths(under: root.path)
        let listed = try InputCollector().collect([root.path, "-", root.path + "/a"])
        #expect(streamed == listed)
        #expect(streamed.prefix(expected.count) == ArraySlice(expected.map { InputSource.file($0) }))
        #expect(streamed[expected.count] == .standardInput)
        #expect(expected.contains(root.path + "/b/dangling.log"))
        let position = { (path: String) in expected.firstIndex(of: root.path + path) ?? -1 }
        #expect(position("/a-b.log") >= 0 && position("/a-b.log") < position("/a/z.log"))
        #expect(position("/a/z.log") < position("/a0/z.log"))
    }

    @Test func inputsAnalysedDuringTheWalkGiveTheReportsOfAWalkDoneFirst() throws {
        let root = try Self.tree()
        defer { try? FileManager.default.removeItem(at: root) }
        let analyzer = try TestSupport.analyzer()
        let paths = [root.path + "/a", root.path, root.path + "/b/empty.log", root.path + "/missing.log"]
        let collector = InputCollector(excludes: ["a0"])
        let walkedFirst = analyzer.analyze(try collector.collect(paths), jobs: 1)
        #expect(walkedFirst.failedInputs.count >= 3)
        for jobs in [1, 2, 3, 8] {
            let progress = ProgressLog()
            let streamed = try analyzer.analyze(paths, collector: collector, jobs: jobs, progress: progress.note)
            #expect(streamed.inputs.map(\.name) == walkedFirst.inputs.map(\.name))
            #expect(JSONReporter.render(streamed) == JSONReporter.render(walkedFirst))
            #expect(TextReporter().render(streamed) == TextReporter().render(walkedFirst))
            // Progress is reported once the total is known, each input counted once.
            let notes = progress.notes
            #expect(notes.allSatisfy { $0.total == walkedFirst.inputs.count })
            #expect(notes.last?.done == walkedFirst.inputs.count)
            #expect(notes.map(\.done) == notes.map(\.done).sorted())
            #expect(Set(notes.map(\.done)).count == notes.count)
        }
    }

    @Test func aFolderWithoutCapturesEndsTheBatchWithItsErrorWhateverWasAnalysed() throws {
        let root = try Self.tree()
        defer { try? FileManager.default.removeItem(at: root) }
        let analyzer = try TestSupport.analyzer()
        let empty = root.appendingPathComponent("empty").path
        for jobs in [1, 2, 4] {
            let error = TraceAnalyzeError.noCaptures(
                folder: empty, includes: InputCollector.defaultIncludes, excludes: [])
            #expect(throws: error) {
                try analyzer.analyze([root.path, empty, root.path], collector: InputCollector(), jobs: jobs)
            }
            #expect(throws: error) { try InputCollector().collect([root.path, empty]) }
            #expect(throws: TraceAnalyzeError.self) {
                try analyzer.analyze(
                    [root.path + "/many"], collector: InputCollector(includes: ["*.json"]), jobs: jobs)
            }
        }
    }
}

/// The progress a batch reported, in order.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [BatchProgress] = []

    var notes: [BatchProgress] { lock.withLock { list } }

    func note(_ progress: BatchProgress) { lock.withLock { list.append(progress) } }
}
