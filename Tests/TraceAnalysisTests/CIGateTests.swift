import Foundation
import Testing

@testable import TraceAnalysis

/// Configuration settings, baselines, `check`, `baseline` and `config --effective`.
@Suite("CI gates")
struct CIGateTests {
    static let settingsFile = """
        version: 1
        budgets:
          launch: 1s
          resume: 150ms
          watchdog: 15s
          apps:
            Photos Pro:
              launch: 2.5s
            Journal:
              resume: 50ms
              watchdog: 5s
        thresholds:
          background-gap: 3s
          alert-gap: 500ms
          memory-warning-window: 2s
          prewarm-gap: 20s
        fail-on: [violations, killed-in-foreground]
        """

    @Test func budgetsThresholdsAndPolicyComeFromTheFile() throws {
        let config = try Configuration.parse(Self.settingsFile, file: "ci.yml")
        var options = AnalysisOptions()
        config.settings.apply(to: &options)
        #expect(options.launchBudgetMs == 1000)
        #expect(options.resumeBudgetMs == 150)
        #expect(options.watchdogMs == 15_000)
        #expect(options.launchBudget(for: "Photos Pro") == 2500)
        #expect(options.resumeBudget(for: "Journal") == 50)
        #expect(options.watchdog(for: "Journal") == 5000)
        #expect(options.resumeBudget(for: "Photos Pro") == 150)
        #expect(
            [options.backgroundGapMs, options.alertGapMs, options.memoryWarningWindowMs, options.prewarmGapMs] == [
                3000, 500, 2000, 20_000,
            ])
        #expect(options.failOn == FailurePolicy([.violations, .killedInForeground]))
    }

    @Test(arguments: [
        ("version: 1\nbudgets:\n  launch: fast\n", 3, "budgets.launch", "is not a duration"),
        ("version: 1\nbudgets:\n  lunch: 1s\n", 3, "budgets.lunch", "unknown key; the keys here are launch, resume"),
        ("version: 1\nfail-on: [violations, crashes]\n", 2, "fail-on", "\"crashes\" is not a finding"),
        ("version: 1\nthresholds:\n  alert-gap: -1s\n", 3, "thresholds.alert-gap", "is not a duration"),
        ("version: 1\nbudgets:\n  apps:\n    App:\n      start: 1s\n", 5, "budgets.apps.App.start", "unknown key"),
    ])
    func badSettingsNameTheLineAndField(_ text: String, _ line: Int, _ field: String, _ problem: String) {
        #expect {
            _ = try Configuration.parse(text, file: "ci.yml")
        } throws: { error in
            guard
                case .invalidConfig(let file, let errorLine, let errorField, let message) = error as? TraceAnalyzeError
            else { return false }
            return file == "ci.yml" && errorLine == line && errorField == field && message.contains(problem)
        }
    }

    @Test func theEffectiveConfigurationReadsBackAsTheSameSettings() throws {
        let config = try Configuration.parse(Self.settingsFile, file: "ci.yml")
        var options = AnalysisOptions()
        config.settings.apply(to: &options)
        options.appLaunchBudgetsMs["Journal"] = 250  // as if from the command line
        let yaml = config.effectiveYAML(options: options)
        #expect(yaml.contains("launch: \"1s\"  # ci.yml"))
        #expect(yaml.contains("alert-gap: \"500ms\"  # ci.yml"))
        #expect(yaml.contains("launch: \"250ms\"  # command line"))
        #expect(yaml.contains("fail-on: [violations, killed-in-foreground]  # ci.yml"))
        let reread = try Configuration.parse(yaml, file: "effective.yml")
        var again = AnalysisOptions()
        reread.settings.apply(to: &again)
        #expect(again == options)
    }

    @Test func aBaselineRoundTripsAndKeysViolationsByAppRuleAndEvent() throws {
        let report = try TestSupport.analyzeAllSamples()
        let baseline = Baseline(report)
        #expect(try Baseline.parse(baseline.json(), file: "b.json") == baseline)
        let checkout = baseline.violations.keys.filter { $0.app == "Checkout" }
        #expect(checkout.count == 7)
        #expect(baseline.apps["Photos Pro"]?.launchP90Ms.map { $0 > 1900 } == true)
        // No line numbers: the same log shifted by a line gives the same baseline.
        let text = try String(
            contentsOf: TestSupport.samples.appendingPathComponent("illegal-transitions.log"), encoding: .utf8)
        let shifted = try TestSupport.analyzer { $0.year = TestSupport.sampleYear }.analyze(text: "\n" + text)
        let original = try TestSupport.analyzeSample("illegal-transitions.log")
        #expect(Baseline(shifted) == Baseline(original))
    }

    @Test func theComparisonFailsOnlyOnWhatIsNewOrSlower() throws {
        let report = try TestSupport.analyzeAllSamples()
        var baseline = Baseline(report)
        #expect(!BaselineComparison(baseline: baseline, report: report, tolerance: 0.1).regressed)
        // A violation kind the baseline does not know, one it knows that is gone, a slower and a faster app.
        let known = try #require(baseline.violations.keys.first { $0.app == "Checkout" })
        baseline.violations[known] = nil
        let gone = Baseline.ViolationKey(
            app: "Checkout", rule: "active-twice", event: "application-did-become-active-x")
        baseline.violations[gone] = 1
        baseline.apps["Photos Pro"]?.launchP90Ms = 1000
        baseline.apps["AppDelegate"]?.launchP90Ms = 100
        baseline.apps["Gone"] = Baseline.AppTimes(launchCount: 1, launchP90Ms: 10)
        let comparison = BaselineComparison(baseline: baseline, report: report, tolerance: 0.1)
        #expect(comparison.newViolations.map(\.key) == [known])
        #expect(comparison.newViolations[0].occurrences.count >= 1)
        #expect(comparison.fixedViolations == [gone])
        #expect(comparison.slower.map(\.app) == ["Photos Pro"])
        #expect(comparison.faster.map(\.app) == ["AppDelegate"])
        #expect(comparison.unmeasured == ["Gone"])
        #expect(comparison.regressed)
        // Within the tolerance is not slower.
        baseline.apps["Photos Pro"]?.launchP90Ms = (report.launches.compactMap(\.durationMs).max() ?? 0) / 1.05
        #expect(BaselineComparison(baseline: baseline, report: report, tolerance: 0.1).slower.isEmpty)
        let result = CheckResult(report: report, baseline: baseline, baselineFile: "b.json", tolerance: 0.1)
        #expect(result.status == .failed)
        let text = result.text()
        #expect(text.contains("new violations (1):"))
        #expect(text.contains("fixed violations (1):"))
        #expect(text.contains("result: failed (exit 1)"))
    }

    @Test func tolerancesReadAsPeoplWriteThem() {
        #expect(CheckResult.tolerance("10%") == 0.1)
        #expect(CheckResult.tolerance("0.25") == 0.25)
        #expect(CheckResult.tolerance("15") == 0.15)
        #expect(CheckResult.tolerance("fast") == nil)
        #expect(CheckResult.tolerance("-5%") == nil)
    }

    @Test func anExpectedScenarioSequenceIsCheckedPerInput() throws {
        let report = try TestSupport.analyzeSample("same-session-nslog.log")
        let sequence =
            "launch,enter-background,return-to-foreground,interruption,enter-background,killed-in-background,launch"
        let met = try ScenarioExpectation(sequence).check(report)
        #expect(met.map(\.met) == [true])
        #expect(met[0].app == "Journal")
        let unmet = try ScenarioExpectation("launch,enter-background").check(report)
        #expect(unmet.map(\.met) == [false])
        #expect(throws: TraceAnalyzeError.self) { try ScenarioExpectation("launch,home-button") }
        let several = try ScenarioExpectation("launch").check(
            try TestSupport.analyzeSample("app-delegate-scenarios.log"))
        #expect(several[0].met == false)
        let named = try ScenarioExpectation("launch", app: "Nobody").check(report)
        #expect(named[0].problem == "Nobody has no episode in this input")
    }
}

/// The CI commands, run as a user runs them.
@Suite("CI commands end to end")
struct CICommandTests {
    static let samples = TestSupport.sampleNames.map { "samples/" + $0 }
    static let fixed = ["--timezone", "UTC", "--year", "2024"]

    @Test func baselineThenCheckPassesAndAStricterRunFails() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("baseline-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let write = try TestSupport.run(["baseline", "--output", path] + Self.fixed + Self.samples)
        #expect(write.status == 0)
        #expect(write.stderr.contains("5 apps timed, 7 known violation kinds from 7 inputs"))
        let pass = try TestSupport.run(["check", "--baseline", path] + Self.fixed + Self.samples)
        #expect(pass.status == 0)
        #expect(pass.stdout.contains("nothing new"))
        // Without the illegal-transitions sample its violations are fixed, and the gate still passes.
        let fewer = try TestSupport.run(["check", "--baseline", path] + Self.fixed + ["samples/slow-launch.log"])
        #expect(fewer.status == 0)
        #expect(fewer.stdout.contains("fixed violations (7):"))
        // Against an empty baseline every violation is new.
        try "{\"baselineVersion\": 1, \"apps\": {}, \"violations\": []}".write(
            toFile: path, atomically: true, encoding: .utf8)
        let fail = try TestSupport.run(["check", "--baseline", path] + Self.fixed + Self.samples)
        #expect(fail.status == 1)
        #expect(fail.stdout.contains("new violations (7):"))
        try "not a baseline".write(toFile: path, atomically: true, encoding: .utf8)
        let bad = try TestSupport.run(["check", "--baseline", path] + Self.fixed + Self.samples)
        #expect(bad.status == 3)
        #expect(bad.stderr.contains("is not a baseline"))
    }

    @Test func checkWithExpectAndWithoutBaselineUsesThePolicy() throws {
        let sequence =
            "launch,enter-background,return-to-foreground,interruption,enter-background,killed-in-background,launch"
        let met = try TestSupport.run(
            ["check", "--expect", sequence] + Self.fixed + [
                "samples/same-session-nslog.log", "samples/same-session-ndjson.log",
            ])
        #expect(met.status == 0)
        let unmet = try TestSupport.run(
            ["check", "--expect", "launch"] + Self.fixed + ["samples/same-session-nslog.log"])
        #expect(unmet.status == 1)
        #expect(unmet.stdout.contains("✗ samples/same-session-nslog.log Journal: got launch, enter-background"))
        let policy = try TestSupport.run(["check"] + Self.fixed + ["samples/slow-launch.log"])
        #expect(policy.status == 1)
        #expect(policy.stdout.contains("findings that fail the run: 1 over-budget"))
        let relaxed = try TestSupport.run(
            ["check", "--fail-on", "violations"] + Self.fixed + ["samples/slow-launch.log"])
        #expect(relaxed.status == 0)
        let typo = try TestSupport.run(["check", "--expect", "launch,home"] + Self.fixed + ["samples/slow-launch.log"])
        #expect(typo.status == 64)
        #expect(typo.stderr.contains("--expect: \"home\" is not a scenario id"))
    }

    @Test func aFolderWithGzipIsOneBatchAndReportsGoWhereAsked() throws {
        let root = try BatchTests.folder([
            "run1/app.log": try BatchTests.sample("slow-launch.log"),
            "run2/app.log.gz": try BatchTests.gzip(try BatchTests.sample("same-session-nslog.log")),
            "notes.md": Array("not a capture".utf8),
        ])
        defer { try? FileManager.default.removeItem(at: root) }
        let json = root.appendingPathComponent("out/report.json").path
        try FileManager.default.createDirectory(
            atPath: root.appendingPathComponent("out").path, withIntermediateDirectories: true)
        let result = try TestSupport.run(
            ["--jobs", "2", "--report", "json=\(json)", "--exclude", "out"] + Self.fixed + [root.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("run1/app.log — nslog-modern"))
        #expect(result.stdout.contains("run2/app.log.gz — nslog-modern"))
        #expect(result.stdout.contains("Per app"))
        #expect(result.stderr.isEmpty, "no progress bar when standard error is not a terminal")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json)))
        let inputs = try #require((object as? [String: Any])?["inputs"] as? [[String: Any]])
        #expect(inputs.count == 2)
        let wrong = try TestSupport.run(["--report", "pdf=x.pdf", "samples/slow-launch.log"])
        #expect(wrong.status == 64)
        #expect(wrong.stderr.contains("--report: \"pdf=x.pdf\" is not FORMAT=PATH"))
    }

    @Test func configEffectiveShowsWhereEachValueComesFrom() throws {
        let result = try TestSupport.run([
            "config", "--effective", "--config", "samples/custom/trace-analyze.yml", "--resume-budget", "App=1s",
        ])
        #expect(result.status == 0)
        #expect(result.stdout.contains("launch: \"400ms\"  # default"))
        #expect(result.stdout.contains("resume: \"1s\"  # command line"))
        #expect(result.stdout.contains("# your formats: team-logger"))
        let usage = try TestSupport.run(["config"])
        #expect(usage.status == 64)
    }
}
