import Testing
@testable import ParlorServer

/// An app page's policy names its server by address as well as by 'self' (WebKit lets
/// 'self' match nothing in a sandboxed page), and only for a Host that is a plain host.
struct AppPagePolicyTests {
    let policy = "sandbox allow-scripts; default-src 'self'; script-src 'self' 'sha256-x'; img-src 'self' data:; frame-ancestors 'self'"

    @Test func aPlainHostIsNamedWhereverSelfIs() {
        let named = StaticFiles.naming("chat.example.org", in: policy)
        #expect(named == "sandbox allow-scripts; default-src 'self' http://chat.example.org https://chat.example.org; "
            + "script-src 'self' http://chat.example.org https://chat.example.org 'sha256-x'; "
            + "img-src 'self' http://chat.example.org https://chat.example.org data:; frame-ancestors 'self'")
        #expect(StaticFiles.naming("127.0.0.1:8080", in: policy).contains("script-src 'self' http://127.0.0.1:8080 https://127.0.0.1:8080 "))
        #expect(StaticFiles.naming("[::1]:8080", in: policy).contains("http://[::1]:8080 "))
    }

    @Test func anythingElseLeavesSelfAlone() {
        for host in [nil, "", "evil.org; script-src *", "a.org\r\nSet-Cookie: x=1", "a.org:", "a.org:123456", "a.org:8x",
                     "[::1", "[]:80", "[::1]x", "*.org", "a b.org", "ä.org", "a.org/path", "user@a.org"] {
            #expect(StaticFiles.naming(host, in: policy) == policy, "\(String(describing: host))")
        }
    }
}
