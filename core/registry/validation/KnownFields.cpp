// SPDX-License-Identifier: MIT
#include "registry/validation/KnownFields.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "model/JsonParse.h"
#include "model/StatusErrors.h"
#include "registry/validation/FieldErrors.h"
#include "registry/validation/KnownFieldsTables.h"

namespace rvscope::registry {

// The generated KnownFieldsData.cpp: resources/schemas/fields-v1.32.json as it is.
extern const char *const KNOWN_FIELDS_JSON;

namespace {
using Ref = KnownFields::Ref;

Ref refFrom(std::string_view text, const std::map<std::string, int, std::less<>> &indexes)
{
    Ref ref;
    while (!text.empty() && (text.front() == '[' || text.front() == '{')) {
        ref.containers += text.front();
        text.remove_prefix(1);
    }
    if (text == "*") {
        ref.terminal = Ref::Terminal::Any;
    } else if (!text.empty()) {
        ref.terminal = Ref::Terminal::Struct;
        ref.type = indexes.find(text)->second; // the generator writes only types it names
    }
    return ref;
}

// sigs.k8s.io/json's strict error text: the path as %q prints it.
std::string quoted(std::string_view what, std::string_view path)
{
    return std::string(what) + ' ' + goQuote(path);
}

// Walks a JSON text's events (nlohmann's SAX parser, which keeps its own stack: any depth
// the body parser took is safe) beside the kind's tables, naming unknown and repeated keys
// in document order. Without tables every object is a map (duplicates only).
class StrictScan final : public nlohmann::json_sax<nlohmann::json> {
public:
    struct Node {
        enum class Mode { Typed, Any, Skip };
        Mode mode = Mode::Skip;
        const Ref *ref = nullptr;
        std::size_t depth = 0; // containers of ref already entered
    };

    StrictScan(const KnownFields::Tables *tables, Node root, std::string prefix)
        : m_tables(tables)
        , m_root(root)
        , m_prefix(std::move(prefix))
    {
    }

    std::vector<std::string> errors;

    // saveStrictError: each text once, and no more than MAX_STRICT_ERRORS of them.
    void save(std::string what)
    {
        if (errors.size() >= MAX_STRICT_ERRORS)
            return;
        std::string text = quoted(m_prefix + what, m_path);
        if (m_saved.insert(text).second)
            errors.push_back(std::move(text));
    }

    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t &) override { return value(); }
    bool string(string_t &) override { return value(); }
    bool binary(binary_t &) override { return value(); }
    bool start_object(std::size_t) override { return open(true); }
    bool start_array(std::size_t) override { return open(false); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &) override { return false; }

    bool key(string_t &name) override
    {
        Frame &frame = m_frames.back();
        m_path.resize(frame.pathLength);
        if (!m_path.empty())
            m_path += '.';
        m_path += name;
        m_next = Node{};
        const Node &node = frame.node;
        if (node.mode == Node::Mode::Skip)
            return true;
        if (node.mode == Node::Mode::Any || node.depth < node.ref->containers.size()) {
            // A map: any key, each once.
            if (!frame.seen.insert(name).second)
                save("duplicate field");
            m_next = node.mode == Node::Mode::Any ? node : Node{Node::Mode::Typed, node.ref, node.depth + 1};
            return true;
        }
        // A struct: its declared fields, each once.
        const auto type = static_cast<std::size_t>(node.ref->type);
        const auto &fields = m_tables->types[type];
        auto field = fields.find(name);
        if (field == fields.end() && type < m_tables->preserveUnknown.size() && m_tables->preserveUnknown[type]) {
            if (!frame.seen.insert(name).second)
                save("duplicate field");
            m_next = Node{Node::Mode::Any, nullptr, 0};
            return true;
        }
        if (field == fields.end()) {
            if (frame.unknown.insert(name).second)
                save("unknown field");
            return true; // its value is not looked at
        }
        if (!frame.seen.insert(name).second)
            save("duplicate field");
        m_next = Node{Node::Mode::Typed, &field->second, 0};
        return true;
    }

private:
    struct Frame {
        Node node; // what this container is
        bool isObject = false;
        std::size_t pathLength = 0;
        std::size_t index = 0; // a list's next item
        std::set<std::string, std::less<>> seen;
        std::set<std::string, std::less<>> unknown;
    };

    // What the value starting now is: the root, the key's value, or a list's next item.
    Node current()
    {
        if (m_frames.empty())
            return m_root;
        Frame &frame = m_frames.back();
        if (frame.isObject)
            return m_next;
        m_path.resize(frame.pathLength);
        m_path += '[' + std::to_string(frame.index++) + ']';
        const Node &node = frame.node;
        if (node.mode == Node::Mode::Any)
            return node;
        if (node.mode == Node::Mode::Typed)
            return Node{Node::Mode::Typed, node.ref, node.depth + 1};
        return Node{};
    }

    bool value()
    {
        current();
        return true;
    }

    bool open(bool isObject)
    {
        Node node = current();
        // The value must be the container the type expects; otherwise decoding failed
        // elsewhere (checkDecodable) and nothing inside is looked at.
        if (node.mode == Node::Mode::Typed) {
            const Ref &ref = *node.ref;
            if (node.depth == ref.containers.size() && ref.terminal == Ref::Terminal::Interface) {
                node = Node{Node::Mode::Any, nullptr, 0};
            } else {
                const bool list = node.depth < ref.containers.size() && ref.containers[node.depth] == '[';
                const bool object = node.depth < ref.containers.size() ? ref.containers[node.depth] == '{'
                                                                        : ref.terminal == Ref::Terminal::Struct;
                if (isObject ? !object : !list)
                    node = Node{};
            }
        }
        Frame frame;
        frame.node = node;
        frame.isObject = isObject;
        frame.pathLength = m_path.size();
        m_frames.push_back(std::move(frame));
        return true;
    }

    bool close()
    {
        m_path.resize(m_frames.back().pathLength);
        m_frames.pop_back();
        return true;
    }

    const KnownFields::Tables *m_tables;
    Node m_root;
    std::string m_prefix;
    std::vector<Frame> m_frames;
    std::string m_path;
    Node m_next;
    std::set<std::string, std::less<>> m_saved;
};

std::vector<std::string> scan(std::string_view text, const KnownFields::Tables *tables, StrictScan::Node root,
                              std::string prefix = {})
{
    StrictScan scanner(tables, root, std::move(prefix));
    // A text the body parser took; should nlohmann refuse it after all, what was found stands.
    nlohmann::json::sax_parse(text.begin(), text.end(), &scanner, nlohmann::json::input_format_t::json, false);
    return std::move(scanner.errors);
}

// Drops what `ref` does not declare under `root`, depth first in Go's map order. A walk with
// its own stack: a CRD's schema nests JSONSchemaProps as deep as the body parser allows.
void pruneTree(nlohmann::json &root, const Ref &rootRef, const KnownFields::Tables &tables,
               std::vector<std::string> &removed, std::vector<std::string> &late)
{
    struct Step {
        nlohmann::json *value;
        const Ref *ref;
        std::size_t depth;         // containers of ref already entered
        const std::string *key;    // how the parent reaches it: a member's name,
        std::size_t item;          // else a list's index (the root: neither)
        bool started = false;
        std::size_t index = 0;   // a list's next item
        nlohmann::json::object_t::iterator next = {}; // a map's or struct's next member
    };
    static thread_local std::vector<Step> steps; // kept between calls: no allocation per body
    steps.clear();
    steps.push_back(Step{&root, &rootRef, 0, nullptr, 0});
    // The steps are the path to the current value: a removed field's path is spelled only
    // when it is named, not on every member the walk passes.
    // Whether the struct being pruned is (within) an embedded resource's ObjectMeta: not the
    // root's, which is steps[1].
    auto inEmbeddedMeta = [&tables](int type) {
        if (type == tables.objectMeta && steps.size() > 2)
            return true;
        for (std::size_t i = 2; i < steps.size(); ++i) {
            if (steps[i].depth == 0 && steps[i].ref->terminal == Ref::Terminal::Struct
                && steps[i].ref->type == tables.objectMeta)
                return true;
        }
        return false;
    };
    auto pathTo = [](const std::string &name) {
        std::string path;
        for (std::size_t i = 1; i < steps.size(); ++i) {
            if (steps[i].key) {
                if (!path.empty())
                    path += '.';
                path += *steps[i].key;
            } else {
                path += '[' + std::to_string(steps[i].item) + ']';
            }
        }
        if (!path.empty())
            path += '.';
        return path + name;
    };
    auto descends = [](const Ref &ref, std::size_t depth) {
        return depth < ref.containers.size() || ref.terminal == Ref::Terminal::Struct;
    };
    while (!steps.empty()) {
        Step &step = steps.back();
        const Ref &ref = *step.ref;
        nlohmann::json &value = *step.value;
        const bool inContainers = step.depth < ref.containers.size();
        const bool list = inContainers && ref.containers[step.depth] == '[' && value.is_array();
        const bool map = inContainers && ref.containers[step.depth] == '{' && value.is_object();
        const bool structure = !inContainers && ref.terminal == Ref::Terminal::Struct && value.is_object();
        if (!list && !map && !structure) {
            steps.pop_back();
            continue;
        }
        if (!step.started) {
            step.started = true;
            if (!list)
                step.next = value.get_ref<nlohmann::json::object_t &>().begin();
        }
        if (list) {
            if (step.index == value.size() || !descends(ref, step.depth + 1)) {
                steps.pop_back();
                continue;
            }
            const std::size_t i = step.index++;
            Step child{&value[i], &ref, step.depth + 1, nullptr, i};
            steps.push_back(child);
            continue;
        }
        auto &members = value.get_ref<nlohmann::json::object_t &>();
        const std::size_t type = static_cast<std::size_t>(ref.type < 0 ? 0 : ref.type);
        const auto &fields = tables.types[type];
        const bool preserve = type < tables.preserveUnknown.size() && tables.preserveUnknown[type];
        bool pushed = false;
        while (!pushed && step.next != members.end()) { // `step` dangles once a child is pushed
            auto member = step.next;
            if (map) {
                ++step.next;
                if (descends(ref, step.depth + 1)) {
                    steps.push_back(Step{&member->second, &ref, step.depth + 1, &member->first, 0});
                    pushed = true;
                }
                continue;
            }
            auto field = fields.find(member->first);
            if (field == fields.end() && preserve) {
                ++step.next;
                continue;
            }
            if (field == fields.end()) {
                // apiextensions prunes an embedded resource's metadata in a pass of its own,
                // after the schema's: those come last.
                const bool embeddedMeta = tables.objectMeta >= 0 && inEmbeddedMeta(static_cast<int>(type));
                if (removed.size() + late.size() < MAX_STRICT_ERRORS)
                    (embeddedMeta ? late : removed).push_back(pathTo(member->first));
                step.next = members.erase(member);
                continue;
            }
            ++step.next;
            if (descends(field->second, 0)) {
                steps.push_back(Step{&member->second, &field->second, 0, &member->first, 0});
                pushed = true;
            }
        }
        if (!pushed)
            steps.pop_back();
    }
}

} // namespace

KnownFields::KnownFields(const Tables *tables, int rootType, std::shared_ptr<const Tables> owned)
    : m_tables(tables)
    , m_rootType(rootType)
    , m_owned(std::move(owned))
{
}

const KnownFields *KnownFields::find(std::string_view apiVersion, std::string_view kind)
{
    const Tables &all = loadTables();
    std::string key;
    key.reserve(apiVersion.size() + kind.size() + 1);
    key.append(apiVersion).append("/").append(kind);
    auto it = all.kinds.find(key);
    return it == all.kinds.end() ? nullptr : &it->second;
}

std::vector<std::string> KnownFields::prune(nlohmann::json &object) const
{
    std::vector<std::string> removed;
    std::vector<std::string> late;
    pruneTree(object, m_tables->structs[static_cast<std::size_t>(m_rootType)], *m_tables, removed, late);
    removed.insert(removed.end(), std::make_move_iterator(late.begin()), std::make_move_iterator(late.end()));
    return removed;
}

std::vector<std::string> KnownFields::strictErrors(std::string_view text) const
{
    if (m_tables->custom) {
        // apiextensions reads the body into a map (every repeated key, in document order),
        // then prunes it by the schema (Go's map order).
        // Pruned: the root's metadata first, then the schema's paths as sort.Strings orders
        // them, then (a pass of its own) embedded resources' metadata, sorted too.
        std::vector<std::string> errors = duplicateFields(text);
        if (std::optional<nlohmann::json> parsed = model::parseJson(text)) {
            std::vector<std::string> removed;
            std::vector<std::string> late;
            pruneTree(*parsed, m_tables->structs[static_cast<std::size_t>(m_rootType)], *m_tables, removed, late);
            auto meta = std::stable_partition(removed.begin(), removed.end(),
                                              [](const std::string &path) { return path.starts_with("metadata."); });
            std::sort(meta, removed.end());
            std::sort(late.begin(), late.end());
            removed.insert(removed.end(), std::make_move_iterator(late.begin()), std::make_move_iterator(late.end()));
            for (const std::string &path : removed) {
                if (errors.size() < MAX_STRICT_ERRORS)
                    errors.push_back(quoted("unknown field", path));
            }
        }
        return errors;
    }
    const Ref &root = m_tables->structs[static_cast<std::size_t>(m_rootType)];
    return scan(text, m_tables, StrictScan::Node{StrictScan::Node::Mode::Typed, &root, 0});
}

std::vector<std::string> duplicateFields(std::string_view text)
{
    return scan(text, nullptr, StrictScan::Node{StrictScan::Node::Mode::Any, nullptr, 0});
}

std::vector<std::string> jsonPatchFieldErrors(std::string_view text)
{
    // A list of operations, each a struct of four fields (its value is not looked into).
    static const KnownFields::Tables operation = [] {
        KnownFields::Tables tables;
        tables.types.resize(1);
        for (const char *field : {"op", "path", "from"})
            tables.types[0][field] = Ref{};
        tables.types[0]["value"] = Ref{"", Ref::Terminal::Interface, -1}; // an interface{}
        return tables;
    }();
    static const Ref operations{"[", Ref::Terminal::Struct, 0};
    return scan(text, &operation, StrictScan::Node{StrictScan::Node::Mode::Typed, &operations, 0}, "json patch ");
}

std::optional<FieldValidation> parseFieldValidation(std::string_view value)
{
    if (value.empty() || value == "Warn")
        return FieldValidation::Warn;
    if (value == "Strict")
        return FieldValidation::Strict;
    if (value == "Ignore")
        return FieldValidation::Ignore;
    return std::nullopt;
}

std::string strictDecodingMessage(const std::vector<std::string> &errors)
{
    std::string message = "strict decoding error: ";
    for (std::size_t i = 0; i < errors.size(); ++i) {
        if (i > 0)
            message += ", ";
        message += errors[i];
    }
    return message;
}

const KnownFields::Tables &KnownFields::loadTables()
{
    static const std::unique_ptr<KnownFields::Tables> loaded = [] {
        auto tables = std::make_unique<KnownFields::Tables>();
        const nlohmann::json document = nlohmann::json::parse(KNOWN_FIELDS_JSON);
        std::map<std::string, int, std::less<>> indexes;
        for (auto it = document["types"].begin(); it != document["types"].end(); ++it)
            indexes.emplace(it.key(), static_cast<int>(indexes.size()));
        tables->types.resize(indexes.size());
        for (std::size_t i = 0; i < indexes.size(); ++i)
            tables->structs.push_back(Ref{"", Ref::Terminal::Struct, static_cast<int>(i)});
        for (auto it = document["types"].begin(); it != document["types"].end(); ++it) {
            auto &fields = tables->types[static_cast<std::size_t>(indexes[it.key()])];
            for (auto field = it->begin(); field != it->end(); ++field)
                fields.emplace(field.key(), refFrom(field->get<std::string>(), indexes));
        }
        for (auto it = document["kinds"].begin(); it != document["kinds"].end(); ++it)
            tables->kinds.emplace(it.key(), KnownFields(tables.get(), indexes.at(it->get<std::string>())));
        return tables;
    }();
    return *loaded;
}

} // namespace rvscope::registry
