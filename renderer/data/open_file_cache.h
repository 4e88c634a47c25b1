#pragma once
// Open data files kept per thread and path, at most `capacity` of them, the
// oldest forgotten first: a server with many maps must not run out of file
// descriptors. `Close` releases an evicted value (a GDAL handle); values that
// release themselves (smart pointers) use the default.

#include <QHash>
#include <QList>
#include <QString>

#include <optional>

namespace maptune {

template <typename Value, void (*Close)(Value&) = nullptr>
class OpenFileCache {
public:
    explicit OpenFileCache(int capacity = 64) : m_capacity(capacity) {}
    ~OpenFileCache()
    {
        if constexpr (Close != nullptr)
            for (Value& v : m_open) Close(v);
    }
    OpenFileCache(const OpenFileCache&) = delete;
    OpenFileCache& operator=(const OpenFileCache&) = delete;

    std::optional<Value> find(const QString& path) const
    {
        const auto it = m_open.constFind(path);
        return it == m_open.constEnd() ? std::nullopt : std::optional<Value>(*it);
    }
    void insert(const QString& path, Value value)
    {
        if (m_order.size() >= m_capacity) {
            Value old = m_open.take(m_order.takeFirst());
            if constexpr (Close != nullptr) Close(old);
        }
        m_open.insert(path, std::move(value));
        m_order << path;
    }

private:
    int m_capacity;
    QHash<QString, Value> m_open;
    QList<QString> m_order;
};

}  // namespace maptune
