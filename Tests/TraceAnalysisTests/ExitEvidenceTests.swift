import Testing

@testable import TraceAnalysis

/// Lines of the debugger and the system that say a process ended, and why.
@Suite("Exit evidence")
struct ExitEvidenceTests {
    static let launch = """
        2024-06-03 09:41:00.118210+0200 Journal[4242:1] application(_:didFinishLaunchingWithOptions:)
        2024-06-03 09:41:00.203998+0200 Journal[4242:1] applicationDidBecomeActive(_:)
        """

    @Test func theDebuggersSigkillWhileActiveIsAKillInForeground() throws {
        let text = Self.launch + "\nMessage from debugger: Terminated due to signal 9"
        let result = try TestSupport.analyzer().analyze(text: text)
        let process = try #require(result.processes.first)
        #expect(process.episodes.map(\.scenario) == [.launch, .killedInForeground])
        #expect(
            process.exit
                == ProcessExit(
                    reason: .signal, line: 3, time: nil, signal: 9,
                    evidence: "Message from debugger: Terminated due to signal 9"))
        #expect(result.inputs[0].unparsedLines == 0)
    }

    @Test func aSegmentationFaultIsACrash() throws {
        let text = Self.launch + "\n/bin/sh: line 1: 4242 Segmentation fault: 11  ./Journal"
        let process = try #require(try TestSupport.analyzer().analyze(text: text).processes.first)
        #expect(process.exit?.reason == .crash)
        #expect(process.episodes.last?.scenario == .killedInForeground)
    }

    @Test func springBoardNamesTheAppByBundleIdAndRunningBoardByPid() throws {
        let text = """
            Jun  3 09:41:00 iPhone Journal[4242] <Notice>: application(_:didFinishLaunchingWithOptions:)
            Jun  3 09:41:00 iPhone Journal[4242] <Notice>: applicationDidBecomeActive(_:)
            Jun  3 09:41:31 iPhone Journal[4242] <Notice>: applicationWillResignActive(_:)
            Jun  3 09:41:31 iPhone Journal[4242] <Notice>: applicationDidEnterBackground(_:)
            Jun  3 09:50:02 iPhone SpringBoard[57] <Warning>: Application 'UIKitApplication:com.example.journal[0x8a1c]' was killed by jetsam.
            Jun  3 09:52:00 iPhone kernel[0] <Notice>: memorystatus_thread: idle exiting pid 4300 [Maps]
            """
        let report = try TestSupport.analyzer().analyze(text: text)
        let journal = try #require(report.processes.first { $0.name == "Journal" })
        #expect(journal.episodes.map(\.scenario) == [.launch, .enterBackground, .killedInBackground])
        #expect(journal.episodes.last?.confidence == .high)
        #expect(journal.exit?.reason == .memory)
        #expect(journal.exit?.line == 5)
        // Maps[4300] never logged: the kernel's line still reports how it ended.
        let maps = try #require(report.processes.first { $0.name == "Maps" })
        #expect(maps.pid == 4300)
        #expect(maps.exit?.reason == .memory)
    }

    @Test func evidenceAfterWillTerminateExplainsTheExitWithoutAKill() throws {
        let text = """
            2024-06-03 09:41:00.118210+0200 Journal[4242:1] application(_:didFinishLaunchingWithOptions:)
            2024-06-03 09:41:00.203998+0200 Journal[4242:1] applicationDidEnterBackground(_:)
            2024-06-03 09:45:00.000000+0200 Journal[4242:1] applicationWillTerminate(_:)
            Message from debugger: Terminated due to signal 15
            """
        let process = try #require(try TestSupport.analyzer().analyze(text: text).processes.first)
        #expect(process.episodes.map(\.scenario) == [.backgroundLaunch, .termination])
        #expect(process.exit?.reason == .signal)
        #expect(process.violations.isEmpty)
    }

    @Test func evidenceAndASuccessorGiveOneKill() throws {
        let text =
            Self.launch + """

                Message from debugger: Terminated due to memory issue
                2024-06-03 09:45:30.024512+0200 Journal[4260:1] application(_:didFinishLaunchingWithOptions:)
                2024-06-03 09:45:30.101234+0200 Journal[4260:1] applicationDidBecomeActive(_:)
                """
        let report = try TestSupport.analyzer().analyze(text: text)
        #expect(report.processes.map(\.pid) == [4242, 4260])
        #expect(report.processes[0].episodes.map(\.scenario) == [.launch, .killedInForeground])
        #expect(report.processes[0].exit?.reason == .memory)
        #expect(report.processes[1].episodes.map(\.scenario) == [.launch])
    }

    @Test(arguments: [
        ("Termination Reason: Namespace SPRINGBOARD, Code 0x8badf00d", ExitReason.watchdog),
        ("Message from debugger: Terminated due to signal 6", .crash),
        (
            "(UIKitApplication:com.example.journal[0x8a1c][4242]) Service exited with abnormal code: 1", .crash
        ),
        ("Application 'UIKitApplication:com.example.journal[0x8a1c]' exited voluntarily.", .voluntary),
    ])
    func reasons(_ line: String, _ reason: ExitReason) throws {
        let process = try #require(try TestSupport.analyzer().analyze(text: Self.launch + "\n" + line).processes.first)
        #expect(process.exit?.reason == reason, "\(line)")
    }
}
