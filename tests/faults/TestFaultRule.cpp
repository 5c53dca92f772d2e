// SPDX-License-Identifier: MIT
// The fault rule syntax: what each word sets, and the message of each mistake.
#include <QtTest/QtTest>

#include "faults/FaultRule.h"
#include "faults/Glob.h"

using rvscope::faults::FaultAction;
using rvscope::faults::FaultRule;
using rvscope::faults::globMatches;
using rvscope::faults::parseFaultRule;

class TestFaultRule final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void testGlob_data();
    void testGlob();
    void testTargetAndDefaults();
    void testEveryWordSetsItsField();
    void testActions_data();
    void testActions();
    void testDelayRange();
    void testBadRules_data();
    void testBadRules();
};

void TestFaultRule::testGlob_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("matches");
    QTest::newRow("star matches empty") << "*" << "" << true;
    QTest::newRow("star matches any") << "*" << "kube-system" << true;
    QTest::newRow("exact") << "foo" << "foo" << true;
    QTest::newRow("exact differs") << "foo" << "foo2" << false;
    QTest::newRow("prefix") << "cfg-*" << "cfg-12" << true;
    QTest::newRow("prefix misses") << "cfg-*" << "cf-12" << false;
    QTest::newRow("middle star backtracks") << "a*b*c" << "axxbyybzc" << true;
    QTest::newRow("question mark") << "pod-?" << "pod-1" << true;
    QTest::newRow("question mark needs one") << "pod-?" << "pod-" << false;
    QTest::newRow("suffix") << "*-lease" << "ctrl-lease" << true;
}

void TestFaultRule::testGlob()
{
    QFETCH(QString, pattern);
    QFETCH(QString, text);
    QFETCH(bool, matches);
    QCOMPARE(globMatches(pattern.toStdString(), text.toStdString()), matches);
}

void TestFaultRule::testTargetAndDefaults()
{
    auto rule = parseFaultRule("  update   deployments/x  every=3 conflict ");
    QVERIFY2(rule, rule ? "" : rule.error().message.c_str());
    QCOMPARE(rule->text, std::string("update deployments/x every=3 conflict"));
    QVERIFY(rule->verbs == std::vector<std::string>{"update"});
    QCOMPARE(rule->resource, std::string("deployments"));
    QCOMPARE(rule->namespaceName, std::string("x"));
    QCOMPARE(rule->name, std::string("*"));
    QVERIFY(!rule->subresource);
    QCOMPARE(rule->user, std::string("*"));
    QCOMPARE(rule->every, std::int64_t(3));
    QVERIFY(!rule->probability);
    QVERIFY(!rule->times);
    QVERIFY(rule->action == FaultAction::Conflict);

    auto all = parseFaultRule("* * error");
    QVERIFY(all);
    QVERIFY(all->verbs == std::vector<std::string>{"*"});
    QVERIFY(all->matchesVerb("get"));
    QVERIFY(all->matchesVerb("deletecollection"));

    auto two = parseFaultRule("update,patch configmaps/default/cfg-* drop-after-commit");
    QVERIFY(two);
    QVERIFY((two->verbs == std::vector<std::string>{"update", "patch"}));
    QVERIFY(two->matchesVerb("patch"));
    QVERIFY(!two->matchesVerb("create"));
    QCOMPARE(two->name, std::string("cfg-*"));
    QCOMPARE(two->targetParts, 3);
    QCOMPARE(rule->targetParts, 2);
    QCOMPARE(rule->group, std::string("*"));

    auto grouped = parseFaultRule("get widgets.example.com/x error");
    QVERIFY(grouped);
    QCOMPARE(grouped->resource, std::string("widgets"));
    QCOMPARE(grouped->group, std::string("example.com"));
}

void TestFaultRule::testEveryWordSetsItsField()
{
    auto rule = parseFaultRule("create,update configmaps/*/cfg subresource=status user=alice agent=kubectl "
                               "client=ctrl-? probability=0.25 seed=42 times=5 throttle retry-after=7");
    QVERIFY2(rule, rule ? "" : rule.error().message.c_str());
    QCOMPARE(rule->subresource.value_or("-"), std::string("status"));
    QCOMPARE(rule->user, std::string("alice"));
    QCOMPARE(rule->agent, std::string("kubectl"));
    QCOMPARE(rule->client, std::string("ctrl-?"));
    QCOMPARE(rule->probability.value_or(0.0), 0.25);
    QCOMPARE(rule->seed, std::uint64_t(42));
    QCOMPARE(rule->times.value_or(0), std::int64_t(5));
    QVERIFY(rule->action == FaultAction::Throttle);
    QCOMPARE(rule->retryAfterSeconds, 7);

    auto once = parseFaultRule("delete secrets/prod/db once error");
    QVERIFY(once);
    QCOMPARE(once->times.value_or(0), std::int64_t(1));
}

void TestFaultRule::testActions_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("action");
    QTest::addColumn<bool>("answersInstead");
    QTest::newRow("conflict") << "update cm conflict" << int(FaultAction::Conflict) << true;
    QTest::newRow("throttle") << "get cm throttle" << int(FaultAction::Throttle) << true;
    QTest::newRow("error") << "list cm error" << int(FaultAction::Error) << true;
    QTest::newRow("timeout") << "get cm timeout" << int(FaultAction::Timeout) << true;
    QTest::newRow("drop") << "create cm drop" << int(FaultAction::Drop) << true;
    QTest::newRow("delay") << "get cm delay=200ms" << int(FaultAction::Delay) << false;
    QTest::newRow("delay after commit") << "update cm delay-after-commit=2s" << int(FaultAction::DelayAfterCommit) << false;
    QTest::newRow("drop after commit") << "create cm drop-after-commit" << int(FaultAction::DropAfterCommit) << false;
    QTest::newRow("end after") << "watch cm end-after=3" << int(FaultAction::EndAfter) << false;
    QTest::newRow("expire after") << "watch cm expire-after=5" << int(FaultAction::ExpireAfter) << false;
    QTest::newRow("compact") << "watch cm compact" << int(FaultAction::Compact) << false;
}

void TestFaultRule::testActions()
{
    QFETCH(QString, text);
    QFETCH(int, action);
    QFETCH(bool, answersInstead);
    auto rule = parseFaultRule(text.toStdString());
    QVERIFY2(rule, rule ? "" : rule.error().message.c_str());
    QCOMPARE(int(rule->action), action);
    QCOMPARE(rvscope::faults::answersInstead(rule->action), answersInstead);
    // The journal's word names the action back.
    QVERIFY(rvscope::faults::actionNamed(rvscope::faults::actionName(rule->action)) == rule->action);
}

void TestFaultRule::testDelayRange()
{
    auto fixed = parseFaultRule("get cm delay=1.5s");
    QVERIFY(fixed);
    QCOMPARE(fixed->delayMinMs, 1500);
    QCOMPARE(fixed->delayMaxMs, 1500);
    auto range = parseFaultRule("get cm delay-after-commit=100ms..1s");
    QVERIFY(range);
    QCOMPARE(range->delayMinMs, 100);
    QCOMPARE(range->delayMaxMs, 1000);
    auto events = parseFaultRule("watch deployments/x expire-after=5");
    QVERIFY(events);
    QCOMPARE(events->events, std::int64_t(5));
    QCOMPARE(events->afterMs, 0);
    auto timed = parseFaultRule("watch deployments/x expire-after=1.5s");
    QVERIFY(timed);
    QCOMPARE(timed->events, std::int64_t(0));
    QCOMPARE(timed->afterMs, 1500);
}

void TestFaultRule::testBadRules_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << "" << "fault rule \"\": expected VERBS TARGET ... ACTION";
    QTest::newRow("no action") << "update cm every=2" << "fault rule \"update cm every=2\": no action (one of conflict";
    QTest::newRow("unknown verb") << "updte cm conflict"
                                  << "fault rule \"updte cm conflict\": unknown verb \"updte\" (get, list, watch";
    QTest::newRow("star among verbs") << "get,* cm error" << "\"*\" already names every verb";
    QTest::newRow("key as target") << "get every=3 error" << "expected the target RESOURCE[/NAMESPACE[/NAME]] second";
    QTest::newRow("too deep target") << "get cm/ns/name/status error" << "has more than RESOURCE/NAMESPACE/NAME";
    QTest::newRow("empty target part") << "get cm//foo error" << "has an empty part (use * for any)";
    QTest::newRow("empty group") << "get deployments./x error" << "has an empty resource or group";
    QTest::newRow("unknown word") << "get cm errror" << "unknown word \"errror\" (an action: conflict";
    QTest::newRow("two actions") << "get cm error timeout" << "two actions, \"error\" and \"timeout\"";
    QTest::newRow("every zero") << "get cm every=0 error" << "every expects a whole number of at least 1, got \"0\"";
    QTest::newRow("every word") << "get cm every=third error" << "every expects a whole number";
    QTest::newRow("empty value") << "get cm user= error" << "\"user=\" needs a value";
    QTest::newRow("probability above one") << "get cm probability=1.5 error"
                                           << "probability expects a number above 0 and at most 1, got \"1.5\"";
    QTest::newRow("every and probability") << "get cm every=2 probability=0.5 error"
                                           << "\"every\" and \"probability\" exclude each other";
    QTest::newRow("seed alone") << "get cm seed=3 error" << "\"seed\" applies to \"probability\" only";
    QTest::newRow("once and times") << "get cm once times=3 error" << "\"once\" and \"times\" exclude each other";
    QTest::newRow("retry-after without throttle") << "get cm retry-after=2 error"
                                                  << "\"retry-after\" applies to \"throttle\" only";
    QTest::newRow("delay without unit") << "get cm delay=200" << "delay expects a duration such as 200ms or 2s";
    QTest::newRow("delay backwards") << "get cm delay=2s..1s" << "or a range such as 100ms..1s, got \"2s..1s\"";
    QTest::newRow("delay without value") << "get cm delay" << "\"delay\" needs a value (delay=200ms)";
    QTest::newRow("end-after zero") << "watch cm end-after=0"
                                    << "end-after expects a number of events of at least 1 (5) or a duration (30s)";
    QTest::newRow("conflict with value") << "update cm conflict=1" << "\"conflict\" takes no value";
    QTest::newRow("end-after on updates") << "update cm end-after=3"
                                          << "\"end-after\" acts on watch streams: the verb must be watch";
    QTest::newRow("expire-after on every verb") << "* cm expire-after=3" << "the verb must be watch";
    QTest::newRow("stall on a list") << "list cm stall" << "\"stall\" acts on watch streams: the verb must be watch";
    QTest::newRow("conflict on a read") << "get,update cm conflict"
                                        << "\"conflict\" acts on update, patch and delete: \"get\" is not one";
    QTest::newRow("conflict on a create") << "create cm conflict"
                                          << "\"conflict\" acts on update, patch and delete: \"create\" is not one";
    QTest::newRow("drop-after-commit on a watch")
        << "watch cm drop-after-commit" << "\"drop-after-commit\" acts on replies (every verb but watch): \"watch\" is not one";
    QTest::newRow("delay-after-commit on a watch")
        << "watch cm delay-after-commit=1s" << "\"delay-after-commit\" acts on replies (every verb but watch): \"watch\" is not one";
}

void TestFaultRule::testBadRules()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    auto rule = parseFaultRule(text.toStdString());
    QVERIFY(!rule);
    QCOMPARE(rule.error().code, 400);
    QCOMPARE(rule.error().reason, std::string("BadRequest"));
    const QString got = QString::fromStdString(rule.error().message);
    QVERIFY2(got.contains(message), qPrintable(got));
}

QTEST_GUILESS_MAIN(TestFaultRule)
#include "TestFaultRule.moc"
