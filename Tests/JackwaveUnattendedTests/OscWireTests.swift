import Foundation
import JackwaveRunSupport
import JackwaveUnattended
import Testing

/// Who may send, where jackwave listens, and liblo's decoding without liblo's sockets.
@Suite("OSC addresses and decoding")
struct OscWireTests {
    @Test("--osc PORT is loopback only; ADDR:PORT is that address; anything else is refused")
    func bindings() {
        #expect(OscBinding.parse("9000")?.description == "127.0.0.1:9000 and [::1]:9000")
        #expect(OscBinding.parse("9000")?.isLoopbackOnly == true)
        #expect(OscBinding.parse("192.0.2.1:9000")?.description == "192.0.2.1:9000")
        #expect(OscBinding.parse("0.0.0.0:9000")?.isLoopbackOnly == false)
        #expect(OscBinding.parse("[::1]:9000")?.description == "[::1]:9000")
        for bad in ["0", "65536", "host:9000", "::1:9000", "192.0.2.1", "[::1]9000", "1.2.3.4:0", "", " 9000"] {
            #expect(OscBinding.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("an allow list admits loopback always and its networks, nothing else")
    func allowList() throws {
        let list = OscAllowList([try #require(OscNetwork("192.0.2.0/24")), try #require(OscNetwork("2001:db8::/32"))])
        let admitted = ["127.0.0.1", "127.3.4.5", "::1", "192.0.2.2", "192.0.2.255", "2001:db8:1::5"]
        let refused = ["192.0.3.1", "198.51.100.7", "10.0.0.1", "::2", "2001:db9::1"]
        for host in admitted { #expect(list.admits(try #require(OscSocketAddress(host: host, port: 1), "\(host)")), "\(host)") }
        for host in refused { #expect(!list.admits(try #require(OscSocketAddress(host: host, port: 1), "\(host)")), "\(host)") }
        #expect(!OscAllowList().admits(try #require(OscSocketAddress(host: "192.0.2.2", port: 1))))
        #expect(OscNetwork("192.0.2.77/24")?.description == "192.0.2.0/24")
        #expect(OscNetwork("198.51.100.7")?.description == "198.51.100.7/32")
        for bad in ["192.0.2.0/33", "example.org", "192.0.2.0/", "192.0.2.0/x", "::/129"] { #expect(OscNetwork(bad) == nil, "\(bad)") }
    }

    @Test("an IPv4-mapped network is the IPv4 network it names; bits are decimal digits; /0 admits everyone")
    func allowListSpellings() throws {
        let mapped = try #require(OscNetwork("::ffff:192.0.2.0/120"))
        #expect(mapped.description == "192.0.2.0/24")
        #expect(OscAllowList([mapped]).admits(try #require(OscSocketAddress(host: "192.0.2.2", port: 1))))
        #expect(OscNetwork("::ffff:198.51.100.7")?.description == "198.51.100.7/32")
        for bad in ["::ffff:192.0.2.0/95", "192.0.2.1/+24", "192.0.2.1/ 24", "192.0.2.1/024x", "192.0.2.1/-0"] {
            #expect(OscNetwork(bad) == nil, "\(bad)")
        }
        #expect(OscNetwork("0.0.0.0/0")?.isEveryone == true && OscNetwork("::/0")?.isEveryone == true)
        #expect(OscNetwork("192.0.2.0/24")?.isEveryone == false)
    }

    @Test("a message and a bundle decode to their messages; a far-future bundle is dispatched at once, nothing held")
    func decoding() throws {
        let decoder = try #require(OscDecoder())
        var one = try #require(OscOutgoing(path: "/jackwave/marker", arguments: [.string("verse")]).datagram)
        let decoded = one.withUnsafeMutableBytes { decoder.decode($0) }
        #expect(decoded.messages == [OscDecodedMessage(path: "/jackwave/marker", arguments: [.string("verse")])])
        #expect(!decoded.malformed)
        // The last NTP second of this era (February 2036): liblo would queue it until then.
        let messages = (0..<100).map { OscOutgoing(path: "/x/\($0)", arguments: [.int(Int64($0))]) }
        var future = try #require(OscOutgoing.bundle(messages, timeTag: (seconds: 0xffff_ffff, fraction: 0)))
        let batch = future.withUnsafeMutableBytes { decoder.decode($0, limit: 10) }
        #expect(batch.messages.count == 10 && batch.dropped == 90)
        #expect(batch.messages.first == OscDecodedMessage(path: "/x/0", arguments: [.int(0)]))
    }

    @Test("garbage is malformed and yields nothing")
    func garbage() throws {
        let decoder = try #require(OscDecoder())
        for bytes: [UInt8] in [[0x2f], Array("#bundle\0".utf8) + [0, 0, 0], Array("/x\0\0,s\0\0abc".utf8), [0xff, 0, 0, 0]] {
            var copy = bytes
            let decoded = copy.withUnsafeMutableBytes { decoder.decode($0) }
            #expect(decoded.messages.isEmpty && decoded.malformed, "\(bytes)")
        }
    }

    @Test("replies are rate-limited: a burst, then a steady rate")
    func limiter() {
        var limiter = ReplyLimiter(burst: 20, perSecond: 20)
        var sent = 0
        for _ in 0..<2000 where limiter.allows(now: 0) { sent += 1 }
        #expect(sent == 20)
        let afterOneToken = limiter.allows(now: 0.06), thenNone = limiter.allows(now: 0.06)
        #expect(afterOneToken && !thenNone)
        sent = 0
        for i in 0..<100 where limiter.allows(now: 10 + Double(i) * 0.001) { sent += 1 }
        #expect(sent == 21)
    }

    @Test("a line queue is bounded: past its capacity lines are counted, and the count said")
    func messageQueueBound() {
        let queue = MessageQueue(capacity: 3)
        for i in 0..<100 { queue.post("line \(i)") }
        #expect(queue.drain() == ["line 0", "line 1", "line 2", "97 more line(s) not shown (more than 3 waited)"])
        #expect(queue.drain().isEmpty)
    }
}
