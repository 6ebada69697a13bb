import JackwaveEngine
import Testing

/// `PortWatch`: which connections to remake when a link's ports vanish and come back.
@Suite("Port watch")
struct PortWatchTests {
    let plan = [(source: "stage:receive_1", input: "jackwave:in_1"), (source: "stage:receive_2", input: "jackwave:in_2")]

    @Test("a source that vanishes is reported, and reconnected to the same input when a port of its name is back")
    func vanishAndReturn() {
        var watch = PortWatch(plan: plan)
        #expect(watch.portChanged("stage:receive_2", registered: false) == [.vanished(source: "stage:receive_2", input: "jackwave:in_2")])
        #expect(watch.missing == ["stage:receive_2"])
        #expect(watch.portChanged("stage:receive_2", registered: true) == [.reconnect(source: "stage:receive_2", input: "jackwave:in_2")])
        #expect(watch.missing.isEmpty)
    }

    @Test("a port that was never planned, or registered without having vanished, changes nothing")
    func unrelated() {
        var watch = PortWatch(plan: plan)
        #expect(watch.portChanged("other:out_1", registered: false) == [])
        #expect(watch.portChanged("other:out_1", registered: true) == [])
        // Present from the start: registered again (a notification for a port jackwave saw) is no reconnection.
        #expect(watch.portChanged("stage:receive_1", registered: true) == [])
    }

    @Test("each vanishing and return is told once, however often the notification comes")
    func once() {
        var watch = PortWatch(plan: plan)
        _ = watch.portChanged("stage:receive_1", registered: false)
        #expect(watch.portChanged("stage:receive_1", registered: false) == [])
        _ = watch.portChanged("stage:receive_1", registered: true)
        #expect(watch.portChanged("stage:receive_1", registered: true) == [])
        // And again on a second restart.
        #expect(watch.portChanged("stage:receive_1", registered: false).count == 1)
        #expect(watch.portChanged("stage:receive_1", registered: true).count == 1)
    }

    @Test("one source feeding two inputs is reconnected to both")
    func fanOut() {
        var watch = PortWatch(plan: [(source: "zn2j:out_1", input: "jackwave:in_1"), (source: "zn2j:out_1", input: "jackwave:in_2")])
        _ = watch.portChanged("zn2j:out_1", registered: false)
        #expect(watch.portChanged("zn2j:out_1", registered: true) == [
            .reconnect(source: "zn2j:out_1", input: "jackwave:in_1"), .reconnect(source: "zn2j:out_1", input: "jackwave:in_2")])
    }

    @Test("after unregistrations, the planned sources no longer found are the ones that vanished, each once")
    func gone() {
        var watch = PortWatch(plan: plan)
        let present: Set<String> = ["stage:receive_1"]
        #expect(watch.sourcesGone(exists: present.contains) == [.vanished(source: "stage:receive_2", input: "jackwave:in_2")])
        #expect(watch.sourcesGone(exists: present.contains) == [])
        #expect(watch.portRegistered("stage:receive_2", isConnected: { _, _ in false })
                == [.reconnect(source: "stage:receive_2", input: "jackwave:in_2")])
    }

    @Test("a source registered again whose connection no longer holds went and came back unseen: told as both")
    func fastRestart() {
        var watch = PortWatch(plan: plan)
        #expect(watch.portRegistered("stage:receive_1", isConnected: { _, _ in false })
                == [.vanished(source: "stage:receive_1", input: "jackwave:in_1"), .reconnect(source: "stage:receive_1", input: "jackwave:in_1")])
        // Its connection holds: a notification for a port already known changes nothing.
        #expect(watch.portRegistered("stage:receive_1", isConnected: { _, _ in true }) == [])
    }

    @Test("a reconnection that failed leaves the source missing, so that its next registration tries again")
    func failedReconnection() {
        var watch = PortWatch(plan: plan)
        _ = watch.portChanged("stage:receive_1", registered: false)
        _ = watch.portChanged("stage:receive_1", registered: true)
        watch.stillMissing("stage:receive_1")
        #expect(watch.missing == ["stage:receive_1"])
        #expect(watch.portChanged("stage:receive_1", registered: true).count == 1)
        watch.stillMissing("other:out_1")
        #expect(watch.missing.isEmpty)
    }
}
