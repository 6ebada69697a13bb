import FoundationEssentials
import Glibc
import JackwaveDSP
import JackwaveRunSupport
import JackwaveVocabulary

/// One measurement's run on an open client with registered ports: activation, connections,
/// the programme played and captured, the paths' declared latencies, deactivation. A run
/// whose cycles the server skipped (PipeWire's way with a late client) heard a broken
/// programme, so it is played again, up to `attempts` times in all, and each time said.
public final class MeasureSession {
    public let client: JackClient
    let inputs: [JackPort]
    let outputs: [JackPort]
    let plan: ConnectionPlan
    let signals = EngineSignals()
    let messages = MessageQueue()
    let notifications: JackNotifications
    public let engine: MeasureEngine
    private var serverWatch = ServerWatch(isPipeWire: JackClient.isPipeWire, socketPath: PipeWireSocket.path())
    private var callbackInstalled = false

    /// Cycles a shown link may take to carry audio (PipeWire), and the longest wait for the
    /// planned connections to show: as a recording's (`ClientRun`).
    static let linkCycles = 4
    static let connectionWait = 2.0
    /// How long the programme may take beyond its own length before the run is given up.
    static let stallAllowance = 10.0

    public init(client: JackClient, inputs: [JackPort], outputs: [JackPort], plan: ConnectionPlan, programme: [[Float]]) {
        self.client = client
        self.inputs = inputs
        self.outputs = outputs
        self.plan = plan
        MeasureEngine.warmUp(outputs: outputs.count, inputs: inputs.count)
        engine = MeasureEngine(programme: programme, inputCount: inputs.count, inputs: inputs, outputs: outputs,
                               signals: signals, client: client)
        // Connections are said once, from the plan, by the command: none is followed here.
        notifications = JackNotifications(client: client, signals: signals, messages: messages,
                                          ownConnectionChanged: { _, _, _ in }, connectionReported: { _, _, _ in })
    }

    /// Plays the programme and captures the inputs, again (up to `attempts` in all) while the
    /// server skips jackwave's cycles or `validate` finds something wrong with a capture (it
    /// returns why); `say` is told what happens.
    public func capture(attempts: Int = 3, validate: ([[Float]]) -> String? = { _ in nil },
                        say: (Phrase) -> Void) -> Result<MeasureCapture, MeasureRunError> {
        if !callbackInstalled {
            notifications.install()
            // Xruns, the shutdown and rate changes are what a measurement needs; connections
            // made and broken are not queued (nothing would drain them).
            notifications.quiet(reportingQueued: false)
            let context = Unmanaged.passUnretained(engine).toOpaque()
            do throws(JackError) {
                try client.setProcessCallback(MeasureEngine.processCallback, context: context)
            } catch {
                return .failure(MeasureRunError(error.message))
            }
            callbackInstalled = true
        }
        var attempt = 1
        while true {
            let xrunsBefore = signals.xruns.load(ordering: .relaxed)
            signals.skippedFrames.store(0, ordering: .relaxed)
            engine.rewind()
            let declared: [(capture: DeclaredLatency, playback: DeclaredLatency)]
            switch play(say: say) {
            case let .failure(error): return .failure(error)
            case let .success(latencies): declared = latencies
            }
            let skipped = signals.skippedFrames.load(ordering: .relaxed)
            let xruns = signals.xruns.load(ordering: .relaxed) - xrunsBefore
            let inputs = engine.capturedSignals()
            let disturbance = skipped > 0
                ? "the server skipped \(skipped) frames of the measurement (it did not run jackwave for them)"
                : validate(inputs)
            if let disturbance, attempt < attempts {
                say("\(disturbance); measuring again (\(attempt + 1) of \(attempts))")
                attempt += 1
                continue
            }
            var capture = MeasureCapture(inputs: inputs, declared: declared, xruns: xruns, skippedFrames: skipped,
                                         disturbance: disturbance, attempts: attempt,
                                         sampleRate: client.sampleRate, period: client.bufferSize)
            capture.startFrameTime = engine.programmeStartFrameTime
            return .success(capture)
        }
    }

    /// One pass of the programme, from activation to deactivation; the declared latencies.
    private func play(say: (Phrase) -> Void) -> Result<[(capture: DeclaredLatency, playback: DeclaredLatency)], MeasureRunError> {
        do throws(JackError) {
            try client.activate()
        } catch {
            return .failure(MeasureRunError(error.message))
        }
        client.nameProcessThread("jackwave-rt")
        for failure in plan.connect(client) { say(Phrase(verbatim: failure)) }
        waitForConnections()
        let ownOutputs = outputs.map(\.fullName), ownInputs = inputs.map(\.fullName)
        for (source, destination) in plan.pairs {
            if let o = ownOutputs.firstIndex(of: source), let c = ownInputs.firstIndex(of: destination) {
                engine.ownOutputFeeds.feed(input: c, from: o)
            }
        }
        // `.releasing`: see EngineSignals; the first cycle that sees it plays frame 0.
        signals.started.store(true, ordering: .releasing)
        let deadline = Date().addingTimeInterval(Double(engine.frames) / Double(client.sampleRate) + Self.stallAllowance)
        var failure: MeasureRunError?
        while !engine.isComplete {
            usleep(10_000)
            for line in messages.drain() { say(line) }
            // `.acquiring`: the shutdown callback copied the reason before its store.
            if signals.serverGone.load(ordering: .acquiring) {
                return .failure(MeasureRunError(notifications.shutdownLine))
            }
            if case .gone = serverWatch.check(cycles: signals.cycles.load(ordering: .relaxed)) {
                return .failure(MeasureRunError("the JACK server went away (PipeWire: no cycle since \(ServerWatch.probeAfter) s and nothing listens on its socket)"))
            }
            let rate = signals.changedSampleRate.load(ordering: .relaxed)
            if rate != 0 {
                failure = MeasureRunError("the server's sample rate changed from \(client.sampleRate) to \(rate) Hz during the measurement")
                break
            }
            if Date() > deadline {
                failure = MeasureRunError("the server did not run jackwave through the measurement (\(engine.captured.load(ordering: .relaxed)) of \(engine.frames) frames in \(Int(Self.stallAllowance)) s more than it lasts)")
                break
            }
        }
        // Asked while the connections still stand and have carried the whole programme.
        let declared = (0..<Swift.min(inputs.count, outputs.count)).map {
            (capture: inputs[$0].declaredLatency(.capture), playback: outputs[$0].declaredLatency(.playback))
        }
        signals.started.store(false, ordering: .releasing)
        client.deactivate()
        for line in messages.drain() { say(line) }
        if let failure { return .failure(failure) }
        return .success(declared)
    }

    /// Waits, at most `connectionWait` seconds, until every planned connection shows on
    /// jackwave's side (inputs and outputs), then `linkCycles` more cycles: PipeWire shows a
    /// link a moment after `jack_connect` returns, and carries audio a cycle or two later.
    func waitForConnections() {
        let ports = inputs + outputs
        let names = ports.map(\.fullName)
        let planned = plan.pairs.compactMap { source, destination -> (String, JackPort)? in
            if let i = names.firstIndex(of: destination) { return (source, ports[i]) }
            if let o = names.firstIndex(of: source) { return (destination, ports[o]) }
            return nil
        }
        let deadline = Date().addingTimeInterval(Self.connectionWait)
        while !planned.allSatisfy({ $1.connections.contains($0) }) && Date() < deadline { usleep(2_000) }
        let shown = signals.cycles.load(ordering: .relaxed)
        while signals.cycles.load(ordering: .relaxed) < shown + Self.linkCycles && Date() < deadline { usleep(1_000) }
    }
}
