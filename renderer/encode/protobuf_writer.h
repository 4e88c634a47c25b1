#pragma once
// Protocol Buffers wire format, written field by field in the order the
// caller gives (protobuf-c writes a message's fields by ascending number, so
// callers that must match its bytes do the same).

#include <QByteArray>

#include <cstdint>
#include <cstring>
#include <vector>

namespace maptune {

class ProtobufWriter {
public:
    enum Wire { Varint = 0, Fixed64 = 1, Delimited = 2, Fixed32 = 5 };

    void varint(std::uint64_t v)
    {
        while (v >= 0x80) {
            m_out.append(char((v & 0x7f) | 0x80));
            v >>= 7;
        }
        m_out.append(char(v));
    }
    void key(int field, Wire wire) { varint(std::uint64_t(field) << 3 | wire); }

    void uint(int field, std::uint64_t v) { key(field, Varint), varint(v); }
    // int64: negative values take ten bytes, as the wire format says.
    void int64(int field, std::int64_t v) { uint(field, std::uint64_t(v)); }
    void sint64(int field, std::int64_t v) { uint(field, (std::uint64_t(v) << 1) ^ std::uint64_t(v >> 63)); }
    void float32(int field, float v)
    {
        key(field, Fixed32);
        char bytes[4];
        std::memcpy(bytes, &v, 4);  // little-endian hosts only, as the rest of the encoders
        m_out.append(bytes, 4);
    }
    void bytes(int field, const QByteArray& b)
    {
        key(field, Delimited);
        varint(std::uint64_t(b.size()));
        m_out.append(b);
    }
    // A packed repeated uint32; nothing when empty.
    void packed(int field, const std::vector<std::uint32_t>& values)
    {
        if (values.empty()) return;
        ProtobufWriter inner;
        for (std::uint32_t v : values) inner.varint(v);
        bytes(field, inner.data());
    }

    const QByteArray& data() const { return m_out; }

private:
    QByteArray m_out;
};

}  // namespace maptune
