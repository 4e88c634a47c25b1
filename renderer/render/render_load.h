#pragma once
// How many map renders run in this process right now. A render may take a
// second core for itself only when it is alone: a server under load keeps
// its cores for the other requests, a single request (a workbench redraw, a
// WMS client at concurrency 1, maptune-cli render) gets the idle one.

namespace maptune {

class RenderLoad {
public:
    // Counts load for its lifetime.
    class Scope {
    public:
        enum class Kind {
            // One render or request; nested on one thread, only the outermost counts.
            Here,
            // One render running on another thread, whatever this thread
            // holds: a test's or benchmark's stand-in for a second request.
            Elsewhere,
            // This thread works for a request counted on another thread (a
            // server's connection thread hands it to a render worker): scopes
            // opened here nest in that one instead of counting again.
            Adopted,
        };
        explicit Scope(Kind kind = Kind::Here);
        ~Scope();
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;

    private:
        Kind m_kind;
    };
    static int active();
    // Whether a render may use a helper thread now.
    static bool hasSpareCore();
};

}  // namespace maptune
