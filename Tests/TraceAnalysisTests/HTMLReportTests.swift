import Foundation
import Testing

@testable import TraceAnalysis

/// The HTML page: its golden file, its structure, its escaping, and how Chromium renders it.
@Suite("HTML report")
struct HTMLReportTests {
    @Test func samplesMatchGolden() throws {
        try TestSupport.compareGolden(HTMLReporter.render(try TestSupport.analyzeAllSamples()), golden: "samples.html")
    }

    @Test func loadsNothing() throws {
        let html = HTMLReporter.render(try TestSupport.analyzeAllSamples())
        #expect(html.hasPrefix("<!DOCTYPE html>\n"))
        for external in ["src=", "href=\"http", "href='http", "url(", "@import", "<script", "<link", "<img"] {
            #expect(!html.contains(external), "the page refers to something outside it: \(external)")
        }
        #expect(html.contains("Content-Security-Policy\" content=\"default-src 'none'"))
        // Every link stays on the page.
        for link in html.ranges(of: "href=\"") {
            #expect(html[link.upperBound...].hasPrefix("#"))
        }
    }

    @Test func swimlanePerProcess() throws {
        let report = try TestSupport.analyzeAllSamples()
        let html = HTMLReporter.render(report)
        #expect(html.occurrences(of: "<svg class=\"swimlane\"") == report.processes.count)
        // active, inactive and background at least, per process.
        #expect(html.occurrences(of: "<rect class=\"lane\"") >= 3 * report.processes.count)
        let episodes = report.processes.reduce(0) { $0 + $1.episodes.count }
        #expect(html.occurrences(of: "<g class=\"episode sc-") == episodes)
        #expect(html.occurrences(of: "<rect class=\"state st-") > 0)
        #expect(html.occurrences(of: "<g class=\"launch-span ") == report.launches.count)
        for (index, input) in report.inputs.enumerated() {
            #expect(html.contains("<section class=\"input\" id=\"input-\(index)\">\n<h3>\(input.name)</h3>"))
        }
    }

    @Test func violationsAreMarked() throws {
        let report = try TestSupport.analyzeSample("illegal-transitions.log")
        let html = HTMLReporter.render(report)
        #expect(html.occurrences(of: "<g class=\"violation\">") == 7)
        #expect(html.contains("<title>violation 2 active-twice at line 4 (09:00:01.002000)\n"))
        #expect(html.occurrences(of: "<tr class=\"violation-row\">") == 7)
        #expect(html.contains("<p class=\"result findings\"><b>Findings</b> 7 violations"))
    }

    @Test func launchChartDrawsTheBudget() throws {
        let html = HTMLReporter.render(try TestSupport.analyzeSample("slow-launch.log"))
        #expect(html.occurrences(of: "<svg class=\"chart launch-chart\"") == 1)
        #expect(html.contains("<line class=\"budget-line\""))
        #expect(html.contains(">budget 400 ms</text>"))
        #expect(html.occurrences(of: "<circle class=\"dot over\"") == 1)
        #expect(html.contains(">p50 1.9 s</text>"))
        #expect(html.contains("<g class=\"launch-span over\">"))
    }

    @Test func manyLaunchesBecomeAHistogram() {
        let samples = (0..<500).map { index in
            HTMLReporter.DistributionChart.Sample(ms: 300 + Double(index % 40), overBudget: index % 40 > 30, label: "")
        }
        let stats = DurationStats(samples.map(\.ms), overBudget: samples.count(where: \.overBudget))
        guard let stats else { return }
        let svg = HTMLReporter.DistributionChart(kind: .launch, samples: samples, budgetMs: 330, stats: stats).svg
        #expect(svg.contains("<g class=\"bar\">"))
        #expect(!svg.contains("<circle"))
        #expect(svg.contains("<rect class=\"over\""))
    }

    /// A chart is given its samples one process at a time and keeps only those it may draw as dots: the page is
    /// the same whatever order they come in, and a chart that became a histogram keeps none.
    @Test func aChartIsTheSameInAnyOrderAndKeepsFewSamples() {
        var random = SplitMix64(seed: 7)
        let samples = (0..<1000).map { index in
            HTMLReporter.DistributionChart.Sample(
                ms: Double(random.next() % 2000), overBudget: index % 7 == 0, label: "App [\(index % 5)]")
        }
        let stats = DurationStats(samples.map(\.ms), overBudget: samples.count(where: \.overBudget))
        guard let stats else { return }
        func svg(_ samples: [HTMLReporter.DistributionChart.Sample]) -> String {
            HTMLReporter.DistributionChart(kind: .launch, samples: samples, budgetMs: 1500, stats: stats).svg
        }
        let few = Array(samples.prefix(40))
        let fewStats = DurationStats(few.map(\.ms), overBudget: few.count(where: \.overBudget))
        guard let fewStats else { return }
        let dots = HTMLReporter.DistributionChart(kind: .launch, samples: few, budgetMs: 1500, stats: fewStats)
        #expect(dots.svg.occurrences(of: "<circle") == 40)
        #expect(dots.keptSamples == 40)
        #expect(
            HTMLReporter.DistributionChart(kind: .launch, samples: few.reversed(), budgetMs: 1500, stats: fewStats)
                .svg == dots.svg)
        let chart = HTMLReporter.DistributionChart(kind: .launch, samples: samples, budgetMs: 1500, stats: stats)
        #expect(chart.keptSamples == 0)
        let histogram = chart.svg
        #expect(histogram.contains("<g class=\"bar\">"))
        #expect(svg(samples.reversed()) == histogram)
        #expect(svg(samples.shuffled(using: &random)) == histogram)
    }

    @Test func logTextIsEscaped() throws {
        let capture = ExampleCapture(
            """
            0.000 @7 application:didFinishLaunchingWithOptions: <script>alert("x")</script>
            0.040 @7 applicationDidBecomeActive:
            0.050 @7 applicationDidBecomeActive:
            0.100 @7 Message from debugger: Terminated due to signal 9 <script>alert('&')</script>
            """, process: "Evil<b>App")
        let report = try TestSupport.analyzer().analyze(text: capture.text, name: "<img src=x>.log")
        let process = try #require(report.processes.first)
        #expect(process.name.contains("<b>"), "the capture should give the process a hostile name")
        #expect(process.exit?.evidence.contains("<script>") == true)
        let html = HTMLReporter.render(report)
        #expect(!html.contains("<script"))
        #expect(!html.contains("<b>App"))
        #expect(!html.contains("<img"))
        #expect(html.contains("Evil&lt;b&gt;App"))
        #expect(html.contains("&lt;script&gt;alert(&#39;&amp;&#39;)&lt;/script&gt;"))
        #expect(html.contains("&lt;img src=x&gt;.log"))
        #expect(html.occurrences(of: "<g class=\"violation\">") == 1)
    }

    @Test func timestampLessProcessesUseLines() throws {
        let text = """
            application:didFinishLaunchingWithOptions:
            applicationDidBecomeActive:
            applicationWillResignActive:
            applicationDidEnterBackground:
            """
        let report = try TestSupport.analyzer().analyze(text: text, name: "bare.log")
        try #require(report.processes.count == 1)
        let html = HTMLReporter.render(report)
        #expect(html.contains("drawn against line numbers"))
        #expect(html.contains(">line</text>"))
    }

    @Test func swimlanesAreCapped() throws {
        var notation = ""
        let count = HTMLReporter.swimlaneLimit + 25
        for pid in 0..<count {
            let start = Double(pid)
            notation += "\(start) @\(1000 + pid) application:didFinishLaunchingWithOptions:\n"
            notation += "\(start + 0.05) @\(1000 + pid) applicationDidBecomeActive:\n"
            if pid == count - 1 { notation += "\(start + 0.06) @\(1000 + pid) applicationDidBecomeActive:\n" }
        }
        let report = try TestSupport.analyzer().analyze(text: ExampleCapture(notation).text, name: "many.log")
        try #require(report.processes.count == count)
        let html = HTMLReporter.render(report)
        #expect(html.occurrences(of: "<svg class=\"swimlane\"") == HTMLReporter.swimlaneLimit)
        #expect(html.contains("Swimlanes are drawn for \(HTMLReporter.swimlaneLimit) of \(count) processes"))
        // The one with a violation is drawn although it comes last; the table lists the rest.
        #expect(html.contains("id=\"process-\(count - 1)\""))
        #expect(html.occurrences(of: "<table class=\"more-processes\">") == 1)
        // 225 launches of 50 ms: too many dots on one spot, so a histogram.
        #expect(html.contains("<title>\(count) launches of "))
    }

    /// A process's badges count its resumes over budget (one killed in the foreground has its own badge, checked with
    /// the kills).
    @Test func badgesCountResumesOverBudget() throws {
        var notation = "0 application:didFinishLaunchingWithOptions:\n0.01 applicationDidBecomeActive:\n"
        // Three resumes: two take 5 s to become active, one 0.1 s.
        for (cycle, resume) in [5.0, 0.1, 5.0].enumerated() {
            let start = 10 * Double(cycle + 1)
            notation += "\(start) applicationWillResignActive:\n\(start + 0.1) applicationDidEnterBackground:\n"
            notation +=
                "\(start + 1) applicationWillEnterForeground:\n\(start + 1 + resume) applicationDidBecomeActive:\n"
        }
        let report = try TestSupport.analyzer().analyze(text: ExampleCapture(notation).text, name: "resumes.log")
        let process = try #require(report.processes.first)
        #expect(process.resumesOverBudget == 2)
        let html = HTMLReporter.render(report)
        #expect(html.contains("<span class=\"badge bad\">2 resumes over budget</span>"))
        #expect(!html.contains("killed in foreground</span>"))
    }

    /// More episodes than ``HTMLReporter/Swimlane/maxMarks`` are drawn in one row, a group per scenario in the order
    /// of ``Scenario/allCases``, each titled with its count and made of bands left to right, closer than a pixel
    /// merged.
    @Test func veryManyEpisodesAreDrawnAsAGroupPerScenario() throws {
        var notation = "0 application:didFinishLaunchingWithOptions:\n0.01 applicationDidBecomeActive:\n"
        for cycle in 0..<400 {
            let start = 1 + Double(cycle)
            notation += "\(start) applicationWillResignActive:\n\(start + 0.1) applicationDidEnterBackground:\n"
            notation += "\(start + 0.5) applicationWillEnterForeground:\n\(start + 0.6) applicationDidBecomeActive:\n"
            if cycle % 50 == 0 { notation += "\(start + 0.7) applicationDidReceiveMemoryWarning\n" }
        }
        let report = try TestSupport.analyzer().analyze(text: ExampleCapture(notation).text, name: "cycles.log")
        let process = try #require(report.processes.first)
        try #require(process.episodes.count > HTMLReporter.Swimlane.maxMarks)
        var expected: [(String, Int)] = []
        for scenario in Scenario.allCases {
            let count = process.episodes.filter { $0.scenario == scenario }.count
            if count > 0 { expected.append((scenario.rawValue, count)) }
        }
        #expect(expected.count >= 3)
        let html = HTMLReporter.render(report)
        let groups = html.components(separatedBy: "<g class=\"episode sc-").dropFirst().filter {
            $0.contains(" dense\">")
        }
        #expect(groups.map { String($0.prefix { $0 != " " }) } == expected.map(\.0))
        for (group, (scenario, count)) in zip(groups, expected) {
            #expect(group.contains("<title>\(scenario) ×\(count)</title>"))
            let body = group.components(separatedBy: "</g>")[0]
            let rects = body.components(separatedBy: "<rect x=\"").dropFirst().map { rect in
                let x = Double(rect.prefix { $0 != "\"" }) ?? -1
                let width = Double(rect.components(separatedBy: "width=\"")[1].prefix { $0 != "\"" }) ?? -1
                return (x, x + width)
            }
            #expect(!rects.isEmpty)
            for (previous, next) in zip(rects, rects.dropFirst()) {
                #expect(next.0 - previous.1 >= 1, "\(scenario): bands closer than a pixel are one")
            }
        }
    }

    /// A scene lane of a few hundred runs draws each; one of thousands draws the runs closer than a pixel to the
    /// previous run of their state as one (as the app delegate's lanes do), so its swimlane stays small.
    @Test func aDenseSceneLaneMergesRunsCloserThanAPixel() throws {
        func html(cycles: Int) throws -> String {
            var notation = "0 application:didFinishLaunchingWithOptions:\n0.01 applicationDidBecomeActive:\n"
            for cycle in 0..<cycles {
                let start = 1 + Double(cycle)
                notation += "\(start) sceneWillResignActive(_:)\n\(start + 0.1) sceneDidBecomeActive(_:)\n"
            }
            let report = try TestSupport.analyzer().analyze(text: ExampleCapture(notation).text, name: "scenes.log")
            return HTMLReporter.render(report)
        }
        let few = try html(cycles: 150)
        #expect(few.occurrences(of: "<title>scene ") == 300)
        let many = try html(cycles: 3_000)
        // 6,000 runs over a thousand pixels: each state's runs are one strip.
        let runs = many.components(separatedBy: "<title>scene ").dropFirst().map { String($0.prefix { $0 != "<" }) }
        #expect(runs == ["(unnamed) · inactive · L3–6002", "(unnamed) · active · L4–6003"])
    }

    @Test func renderingIsDeterministic() throws {
        let report = try TestSupport.analyzeAllSamples()
        #expect(HTMLReporter.render(report) == HTMLReporter.render(try TestSupport.analyzeAllSamples()))
    }

    // MARK: Chromium

    static var chromium: URL? {
        var candidates = ["/usr/bin/chromium"]
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] {
                candidates.append("\(folder)/\(name)")
            }
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }.map(URL.init(fileURLWithPath:))
    }

    static var chromiumAvailable: Bool { chromium != nil }

    /// Renders the samples' page in headless Chromium: the screenshot must show something, the DOM must still hold
    /// the swimlanes and the chart, and the page must log no error (a blocked load would, under its policy).
    @Test(.enabled(if: Self.chromiumAvailable || ProcessInfo.processInfo.environment["CI"] != nil))
    func rendersInChromium() throws {
        let chromium = try #require(Self.chromium, "chromium is not installed (Debian: apt-get install chromium)")
        let report = try TestSupport.analyzeAllSamples()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("html-report-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("samples.html")
        try HTMLReporter.render(report).write(to: page, atomically: true, encoding: .utf8)

        let png = folder.appendingPathComponent("samples.png")
        let shot = try Self.runChromium(
            chromium, ["--window-size=1280,2400", "--screenshot=\(png.path)", page.absoluteString], profile: folder)
        #expect(shot.status == 0, "chromium failed: \(shot.stderr)")
        Self.expectNoPageErrors(shot.stderr)
        let data = try Data(contentsOf: png)
        #expect(data.count > 20_000, "the screenshot is suspiciously small: \(data.count) bytes")
        let bytes = [UInt8](data)
        try #require(bytes.count > 24 && bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 1280 && height == 2400)
        // A page of one colour compresses to a few repeated bytes.
        #expect(Set(bytes).count > 200)

        let dom = try Self.runChromium(chromium, ["--dump-dom", page.absoluteString], profile: folder)
        #expect(dom.status == 0, "chromium failed: \(dom.stderr)")
        Self.expectNoPageErrors(dom.stderr)
        #expect(dom.stdout.occurrences(of: "<svg class=\"swimlane\"") == report.processes.count)
        #expect(dom.stdout.contains("<svg class=\"chart launch-chart\""))
        #expect(dom.stdout.contains("class=\"budget-line\""))
    }

    /// Writes `Documentation/images/html-report.png` (RECORD_SCREENSHOT=1 swift test --filter HTMLReport): tall
    /// enough to show the first swimlane, small enough (about 400 KB) for the repository.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["RECORD_SCREENSHOT"] == "1"))
    func recordScreenshot() throws {
        let chromium = try #require(Self.chromium)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("html-shot-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("samples.html")
        try HTMLReporter.render(try TestSupport.analyzeAllSamples()).write(to: page, atomically: true, encoding: .utf8)
        let images = TestSupport.packageRoot.appendingPathComponent("Documentation/images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        let png = images.appendingPathComponent("html-report.png")
        let shot = try Self.runChromium(
            chromium, ["--window-size=1280,2200", "--screenshot=\(png.path)", page.absoluteString], profile: folder)
        #expect(shot.status == 0, "chromium failed: \(shot.stderr)")
    }

    /// Fails on what the page itself logs: uncaught exceptions, console errors, blocked loads.
    static func expectNoPageErrors(_ stderr: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for line in stderr.split(separator: "\n") {
            let pageError =
                line.contains("Uncaught") || line.contains(":CONSOLE") || line.contains("Content Security Policy")
                || line.contains("Failed to load resource")
            #expect(!pageError, "the page logged: \(line)", sourceLocation: sourceLocation)
        }
    }

    /// Runs headless Chromium on `arguments` with a profile of its own; killed after 60 s.
    static func runChromium(_ chromium: URL, _ arguments: [String], profile: URL) throws -> TestSupport.RunResult {
        let process = Process()
        process.executableURL = chromium
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                "--disable-dev-shm-usage", "--enable-logging=stderr", "--v=0",
                "--user-data-dir=\(profile.appendingPathComponent("profile").path)",
            ] + arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem {
            if process.isRunning { kill(pid, SIGKILL) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        // Read both pipes while Chromium runs, so that neither fills up and blocks it.
        let errData = LockedData()
        let reader = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        while !errData.isSet { usleep(10_000) }
        return TestSupport.RunResult(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData.value, as: UTF8.self))
    }
}

/// Data handed from a reader thread.
private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?

    func set(_ value: Data) { lock.withLock { data = value } }
    var isSet: Bool { lock.withLock { data != nil } }
    var value: Data { lock.withLock { data ?? Data() } }
}

extension String {
    func occurrences(of needle: String) -> Int { ranges(of: needle).count }
}
