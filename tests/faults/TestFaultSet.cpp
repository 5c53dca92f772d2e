// SPDX-License-Identifier: MIT
// Which requests a fault rule names, and when it fires: every N-th match, by a seeded
// probability, a number of times; the oldest rule whose turn it is acts.
#include <QtTest/QtTest>

#include <algorithm>
#include <vector>

#include "faults/FaultSet.h"

using rvscope::faults::FaultAction;
using rvscope::faults::FaultRequest;
using rvscope::faults::FaultSet;

namespace {
FaultRequest request(std::string verb, std::string resource, std::string ns, std::string name)
{
    FaultRequest r;
    r.verb = std::move(verb);
    r.resource = std::move(resource);
    r.namespaceName = std::move(ns);
    r.name = std::move(name);
    r.user = "system:anonymous";
    return r;
}

std::uint64_t added(FaultSet &set, const char *text)
{
    auto id = set.add(text);
    if (!id)
        qFatal("%s", id.error().message.c_str());
    return *id;
}

// Which of `count` identical requests the set fires on (1-based).
std::vector<int> firings(FaultSet &set, const FaultRequest &r, int count)
{
    std::vector<int> fired;
    for (int i = 1; i <= count; ++i) {
        if (set.decide(r))
            fired.push_back(i);
    }
    return fired;
}
} // namespace

class TestFaultSet final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testMatchesOnlyWhatItNames();
    void testSubresourceAndClient();
    void testEveryNth();
    void testTimesAndOnce();
    void testProbabilityIsRepeatable();
    void testOldestRuleActs();
    void testDelayDrawnInRange();
    void testRemoveAndClear();
    void testGroupNamesOnlyThatGroup();
    void testTargetCheckRewritesOrRefuses();
    void testWithdrawnFiringIsNotCounted();
    void testExpiryStaysUntilTheRuleGoes();
    void testFreshSetTakesOverAPersonsRules();
};

void TestFaultSet::testMatchesOnlyWhatItNames()
{
    FaultSet set;
    added(set, "update configmaps/x/foo conflict");
    QVERIFY(set.decide(request("update", "configmaps", "x", "foo")));
    QVERIFY(!set.decide(request("update", "configmaps", "y", "foo")));    // another namespace
    QVERIFY(!set.decide(request("update", "configmaps", "x", "bar")));    // another name
    QVERIFY(!set.decide(request("patch", "configmaps", "x", "foo")));     // another verb
    QVERIFY(!set.decide(request("update", "secrets", "x", "foo")));       // another resource
    QCOMPARE(set.entries().front().matched, std::uint64_t(1));
    QCOMPARE(set.entries().front().fired, std::uint64_t(1));

    FaultSet globs;
    added(globs, "* */kube-* error");
    QVERIFY(globs.decide(request("list", "pods", "kube-system", "")));
    QVERIFY(globs.decide(request("delete", "leases", "kube-node-lease", "n1")));
    QVERIFY(!globs.decide(request("list", "pods", "default", "")));
    // A namespace of * includes requests across namespaces and cluster-scoped ones.
    FaultSet any;
    added(any, "list nodes error");
    QVERIFY(any.decide(request("list", "nodes", "", "")));
    // A `*` rule passes by what its action cannot act on: no optimistic-lock 409 for a read
    // or a create, no "after the reply" for a watch's stream.
    FaultSet everyVerb;
    added(everyVerb, "* configmaps conflict");
    added(everyVerb, "* secrets delay-after-commit=1s");
    for (const char *verb : {"get", "list", "watch", "create", "deletecollection"})
        QVERIFY2(!everyVerb.decide(request(verb, "configmaps", "x", "foo")), verb);
    for (const char *verb : {"update", "patch", "delete"})
        QVERIFY2(everyVerb.decide(request(verb, "configmaps", "x", "foo")), verb);
    QVERIFY(!everyVerb.decide(request("watch", "secrets", "x", "")));
    QVERIFY(everyVerb.decide(request("get", "secrets", "x", "s")));
}

void TestFaultSet::testSubresourceAndClient()
{
    FaultSet set;
    added(set, "update deployments timeout");
    FaultRequest status = request("update", "deployments", "x", "web");
    status.subresource = "status";
    QVERIFY(!set.decide(status)); // without subresource=: the object itself only
    QVERIFY(set.decide(request("update", "deployments", "x", "web")));

    FaultSet sub;
    added(sub, "update deployments subresource=status timeout");
    QVERIFY(sub.decide(status));
    QVERIFY(!sub.decide(request("update", "deployments", "x", "web")));

    FaultSet clients;
    added(clients, "get configmaps user=alice error");
    added(clients, "get configmaps agent=kubectl throttle");
    added(clients, "get configmaps client=ctrl-* timeout");
    FaultRequest bob = request("get", "configmaps", "x", "a");
    bob.user = "bob";
    QVERIFY(!clients.decide(bob));
    FaultRequest alice = bob;
    alice.user = "alice";
    QVERIFY(clients.decide(alice)->action == FaultAction::Error);
    FaultRequest kubectl = bob;
    kubectl.agent = "kubectl";
    QVERIFY(clients.decide(kubectl)->action == FaultAction::Throttle);
    FaultRequest controller = bob;
    controller.client = "ctrl-a";
    QVERIFY(clients.decide(controller)->action == FaultAction::Timeout);
}

void TestFaultSet::testEveryNth()
{
    FaultSet set;
    added(set, "update deployments/x every=3 conflict");
    const FaultRequest r = request("update", "deployments", "x", "web");
    QCOMPARE(firings(set, r, 9), (std::vector<int>{3, 6, 9}));
    // Requests it does not name do not count.
    QVERIFY(!set.decide(request("update", "deployments", "y", "web")));
    QCOMPARE(set.entries().front().matched, std::uint64_t(9));
    QCOMPARE(set.entries().front().fired, std::uint64_t(3));
}

void TestFaultSet::testTimesAndOnce()
{
    FaultSet set;
    added(set, "get configmaps every=2 times=2 error");
    const FaultRequest r = request("get", "configmaps", "x", "a");
    QCOMPARE(firings(set, r, 10), (std::vector<int>{2, 4}));
    QVERIFY(set.entries().front().spent());

    FaultSet once;
    added(once, "get configmaps once error");
    QCOMPARE(firings(once, r, 5), (std::vector<int>{1}));
}

void TestFaultSet::testProbabilityIsRepeatable()
{
    const FaultRequest r = request("get", "configmaps", "x", "a");
    FaultSet a;
    added(a, "get configmaps probability=0.3 seed=42 error");
    FaultSet b;
    added(b, "get configmaps probability=0.3 seed=42 error");
    const std::vector<int> first = firings(a, r, 1000);
    QCOMPARE(firings(b, r, 1000), first);
    // About 30%.
    QVERIFY2(first.size() > 230 && first.size() < 370, qPrintable(QString::number(first.size())));
    FaultSet other;
    added(other, "get configmaps probability=0.3 seed=43 error");
    QVERIFY(firings(other, r, 1000) != first);
    FaultSet always;
    added(always, "get configmaps probability=1 error");
    QCOMPARE(firings(always, r, 20).size(), std::size_t(20));
}

void TestFaultSet::testOldestRuleActs()
{
    FaultSet set;
    const std::uint64_t first = added(set, "update configmaps every=2 conflict");
    const std::uint64_t second = added(set, "update configmaps error");
    const FaultRequest r = request("update", "configmaps", "x", "a");
    auto one = set.decide(r);
    QVERIFY(one && one->ruleId == second && one->action == FaultAction::Error);
    auto two = set.decide(r);
    QVERIFY(two && two->ruleId == first && two->action == FaultAction::Conflict);
    // Both counted the matches; the second fired only when it acted.
    QCOMPARE(set.entries()[0].matched, std::uint64_t(2));
    QCOMPARE(set.entries()[1].matched, std::uint64_t(2));
    QCOMPARE(set.entries()[1].fired, std::uint64_t(1));
}

void TestFaultSet::testDelayDrawnInRange()
{
    FaultSet set;
    added(set, "get configmaps delay=100ms..300ms");
    const FaultRequest r = request("get", "configmaps", "x", "a");
    bool varied = false;
    int previous = -1;
    for (int i = 0; i < 50; ++i) {
        auto fault = set.decide(r);
        QVERIFY(fault);
        QVERIFY(fault->delayMs >= 100 && fault->delayMs <= 300);
        varied = varied || (previous >= 0 && previous != fault->delayMs);
        previous = fault->delayMs;
    }
    QVERIFY(varied);
    FaultSet watch;
    added(watch, "watch deployments/x expire-after=5");
    auto expire = watch.decide(request("watch", "deployments", "x", ""));
    QVERIFY(expire && expire->action == FaultAction::ExpireAfter && expire->events == 5);
}

void TestFaultSet::testRemoveAndClear()
{
    FaultSet set;
    const std::uint64_t a = added(set, "get configmaps error");
    const std::uint64_t b = added(set, "list configmaps error");
    QVERIFY(a != b);
    QVERIFY(set.remove(a));
    QVERIFY(!set.remove(a));
    QVERIFY(!set.decide(request("get", "configmaps", "x", "a")));
    QVERIFY(set.decide(request("list", "configmaps", "x", "")));
    set.clear();
    QVERIFY(set.empty());
    // Ids are not reused.
    QVERIFY(added(set, "get configmaps error") > b);
    QVERIFY(!set.add("get configmaps nonsense"));
}

void TestFaultSet::testGroupNamesOnlyThatGroup()
{
    FaultSet set;
    added(set, "get deployments.apps error");
    FaultRequest apps = request("get", "deployments", "x", "web");
    apps.group = "apps";
    FaultRequest other = apps;
    other.group = "extensions";
    QVERIFY(set.decide(apps));
    QVERIFY(!set.decide(other));
    // Without a group a rule names the resource in any group, the core group ("") included.
    FaultSet any;
    added(any, "get deployments error");
    QVERIFY(any.decide(other));
    added(any, "get configmaps error");
    QVERIFY(any.decide(request("get", "configmaps", "x", "a")));
}

void TestFaultSet::testTargetCheckRewritesOrRefuses()
{
    FaultSet set;
    set.setTargetCheck([](rvscope::faults::FaultRule &rule) -> std::optional<std::string> {
        if (rule.resource == "nodes" && rule.targetParts == 2) {
            rule.name = rule.namespaceName;
            rule.namespaceName = "*";
        }
        if (rule.resource == "nodez")
            return std::string("the server serves no resource \"nodez\"");
        return std::nullopt;
    });
    added(set, "get nodes/n1 error");
    QVERIFY(set.decide(request("get", "nodes", "", "n1")));
    QVERIFY(!set.decide(request("get", "nodes", "", "n2")));
    auto refused = set.add("get nodez/n1 error");
    QVERIFY(!refused);
    QCOMPARE(refused.error().code, 400);
    QCOMPARE(QString::fromStdString(refused.error().message),
             QStringLiteral("fault rule \"get nodez/n1 error\": the server serves no resource \"nodez\""));
    QCOMPARE(set.entries().size(), std::size_t(1)); // nothing added
}

void TestFaultSet::testWithdrawnFiringIsNotCounted()
{
    FaultSet set;
    const std::uint64_t id = added(set, "update configmaps conflict once");
    QVERIFY(set.decide(request("update", "configmaps", "x", "missing")));
    QVERIFY(set.entries().front().spent());
    set.withdraw(id);
    QCOMPARE(set.entries().front().fired, std::uint64_t(0));
    QVERIFY(set.decide(request("update", "configmaps", "x", "there"))); // its one time is still to come
}

void TestFaultSet::testExpiryStaysUntilTheRuleGoes()
{
    FaultSet set;
    const std::uint64_t id = added(set, "watch configmaps/x client=ctrl expire-after=2");
    FaultRequest watch = request("watch", "configmaps", "x", "");
    watch.client = "ctrl";
    QCOMPARE(FaultSet::resourceKey(watch), std::string("configmaps"));
    FaultRequest deployments = watch;
    deployments.group = "apps";
    deployments.resource = "deployments";
    QCOMPARE(FaultSet::resourceKey(deployments), std::string("deployments.apps"));
    QVERIFY(!set.expiredFor(watch, 5));
    set.recordExpiry(id, "configmaps", 10);
    set.recordExpiry(id, "configmaps", 7); // never lowered
    auto expired = set.expiredFor(watch, 9);
    QVERIFY(expired);
    QCOMPARE(expired->ruleId, id);
    QCOMPARE(expired->oldest, std::int64_t(10));
    QVERIFY(!set.expiredFor(watch, 10)); // what is left resumes
    // Only what the rule names: another namespace, another client, another verb.
    FaultRequest elsewhere = watch;
    elsewhere.namespaceName = "y";
    QVERIFY(!set.expiredFor(elsewhere, 9));
    FaultRequest other = watch;
    other.client = "someone-else";
    QVERIFY(!set.expiredFor(other, 9));
    FaultRequest list = watch;
    list.verb = "list";
    QVERIFY(!set.expiredFor(list, 9));
    set.recordExpiry(id + 1, "configmaps", 20); // no such rule: nothing
    QVERIFY(!set.expiredFor(watch, 15));
    QVERIFY(set.remove(id));
    QVERIFY(!set.expiredFor(watch, 9)); // gone with its rule
}

void TestFaultSet::testFreshSetTakesOverAPersonsRules()
{
    FaultSet old;
    added(old, "get configmaps error");
    added(old, "get secrets error once");
    const std::uint64_t kept = added(old, "list configmaps throttle");
    QVERIFY(old.add("watch configmaps expire-after=1", FaultSet::Origin::Scenario));
    QVERIFY(old.decide(request("get", "secrets", "x", "s"))); // spent now
    QVERIFY(old.decide(request("list", "configmaps", "x", "")));
    QVERIFY(old.remove(1));

    FaultSet fresh;
    added(fresh, "get configmaps error"); // what a fresh core's command line adds: replaced
    fresh.takeOver(old);
    QCOMPARE(fresh.entries().size(), std::size_t(1));
    QCOMPARE(fresh.entries().front().id, kept);
    QCOMPARE(fresh.entries().front().rule.text, std::string("list configmaps throttle"));
    QCOMPARE(fresh.entries().front().matched, std::uint64_t(0));
    QVERIFY(added(fresh, "get pods error") > 4); // ids go on, never reused

    // A scenario's "clear" step removes its own rules only.
    QVERIFY(fresh.add("watch pods expire-after=1", FaultSet::Origin::Scenario));
    fresh.clear(FaultSet::Origin::Scenario);
    QCOMPARE(fresh.entries().size(), std::size_t(2));
    QVERIFY(std::ranges::none_of(fresh.entries(),
                                 [](const FaultSet::Entry &entry) { return entry.origin == FaultSet::Origin::Scenario; }));
}

QTEST_GUILESS_MAIN(TestFaultSet)
#include "TestFaultSet.moc"
