@testable import JackwaveNSM
import JackwaveUnattended
import Testing

@Suite("NSM messages and addresses")
struct NSMClientTests {
    @Test("an open with its three strings is an open; with another count or type it is nothing")
    func openNeedsThreeStrings() {
        #expect(NSMClient.request("/nsm/client/open", [.string("/s/jackwave.nABCD"), .string("jackwave"), .string("jackwave.nABCD")])
            == .open(NSMOpen(path: "/s/jackwave.nABCD", displayName: "jackwave", clientID: "jackwave.nABCD")))
        #expect(NSMClient.request("/nsm/client/open", [.string("/s"), .string("jackwave")]) == nil)
        #expect(NSMClient.request("/nsm/client/open", [.string("/s"), .int(1), .string("jackwave.nABCD")]) == nil)
    }

    @Test("a text longer than the bound makes the request nothing, not a huge client name")
    func overlongTextRefused() {
        let long = String(repeating: "a", count: NSMClient.maximumText + 1)
        #expect(NSMClient.request("/nsm/client/open", [.string("/s"), .string("jackwave"), .string(long)]) == nil)
    }

    @Test("the announce's reply and error are told apart from replies to anything else")
    func announceReplies() {
        #expect(NSMClient.request("/reply", [.string("/nsm/server/announce"), .string("hi"), .string("New Session Manager"), .string(":server-control:")])
            == .welcomed(manager: "New Session Manager"))
        #expect(NSMClient.request("/error", [.string("/nsm/server/announce"), .int32(-2), .string("incompatible")]) == .refused("incompatible"))
        #expect(NSMClient.request("/reply", [.string("/nsm/server/save"), .string("ok"), .string("x")]) == nil)
        #expect(NSMClient.request("/nsm/client/save", []) == .save)
        #expect(NSMClient.request("/nsm/client/show_optional_gui", []) == nil)
    }

    @Test("NSM_URL naming this machine is reached over loopback, at its port")
    func urlOnThisMachine() throws {
        let address = try NSMAddress.resolve("osc.udp://localhost:15000/")
        #expect(address.isLoopback && address.port == 15000)
        #expect(try NSMAddress.resolve("osc.udp://127.0.0.1:9/").description == "127.0.0.1:9")
    }

    @Test("NSM_URL over TCP, without a port, or naming another machine is refused with its reason",
          arguments: [("osc.tcp://localhost:15000/", "not an osc.udp:// address"), ("osc.udp://localhost/", "no port"),
                      ("osc.udp://192.0.2.1:15000/", "another machine"), ("osc.udp://:15000/", "no host")])
    func urlRefused(url: String, reason: String) {
        #expect(throws: NSMClientError.self) { try NSMAddress.resolve(url) }
        do { _ = try NSMAddress.resolve(url) } catch { #expect(error.message.contains(reason), "\(error.message)") }
    }
}
