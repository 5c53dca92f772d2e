// SPDX-License-Identifier: MIT
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <random>

#include <nlohmann/json.hpp>

#include "auth/TokenFile.h"
#include "model/Status.h"

using rvscope::auth::TokenFile;
using rvscope::auth::UserInfo;

namespace {
QStringList toStringList(const std::vector<std::string> &values)
{
    QStringList list;
    for (const std::string &value : values)
        list << QString::fromStdString(value);
    return list;
}

TokenFile parsed(const QString &text)
{
    auto file = TokenFile::parse(text.toStdString());
    if (!file)
        qFatal("token file did not parse: %s", file.error().message.c_str());
    return std::move(file).value();
}

const QString ALICE_FILE = QStringLiteral("t1,alice,uid-1,\"devs,ops\"\nt2,bob,uid-2\n");
} // namespace

// The apiserver's static token file and bearer-token authentication, with upstream's
// anonymous fallback and 401 body.
class TestTokenFile final : public QObject {
    Q_OBJECT

private slots:
    void parsesRecords_data();
    void parsesRecords();
    void rejectsMalformedFiles_data();
    void rejectsMalformedFiles();
    void errorsNeverEchoTheToken();
    void readsHeaders_data();
    void readsHeaders();
    void unknownTokenIs401EvenWithAnonymous();
    void missingCredentialsAre401WithoutAnonymous();
    void emptyFileRejectsEveryToken();
    void buildsFromUsersInCode();
    void fromUsersKeepsParseRules();
    void loadsFromDisk();
    void missingFileNamesThePath();
    void randomInputNeverCrashes();
};

void TestTokenFile::parsesRecords_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("token");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("uid");
    QTest::addColumn<QStringList>("groups");
    QTest::addColumn<int>("size");

    const QString authenticated = QStringLiteral("system:authenticated");
    QTest::newRow("three columns") << "t1,alice,uid-1" << "t1" << "alice" << "uid-1" << QStringList{authenticated} << 1;
    QTest::newRow("quoted groups") << ALICE_FILE << "t1" << "alice" << "uid-1" << QStringList{"devs", "ops", authenticated} << 2;
    QTest::newRow("second line") << ALICE_FILE << "t2" << "bob" << "uid-2" << QStringList{authenticated} << 2;
    QTest::newRow("one unquoted group") << "t1,alice,1,devs" << "t1" << "alice" << "1" << QStringList{"devs", authenticated} << 1;
    QTest::newRow("empty groups column") << "t1,alice,1," << "t1" << "alice" << "1" << QStringList{authenticated} << 1;
    QTest::newRow("empty group names dropped") << "t1,alice,1,\",devs,,ops,\"" << "t1" << "alice" << "1"
                                              << QStringList{"devs", "ops", authenticated} << 1;
    QTest::newRow("empty uid") << "t1,alice," << "t1" << "alice" << "" << QStringList{authenticated} << 1;
    QTest::newRow("every field quoted") << "\"t1\",\"alice\",\"1\",\"devs\"" << "t1" << "alice" << "1"
                                       << QStringList{"devs", authenticated} << 1;
    QTest::newRow("doubled quote in a quoted field") << "\"t\"\"1\",\"a \"\"b\"\"\",1" << "t\"1" << "a \"b\"" << "1"
                                                    << QStringList{authenticated} << 1;
    QTest::newRow("comma in a quoted user") << "t1,\"doe, jane\",1" << "t1" << "doe, jane" << "1" << QStringList{authenticated} << 1;
    QTest::newRow("whitespace kept like encoding/csv") << "t1, alice,1,\"devs, ops\"" << "t1" << " alice" << "1"
                                                      << QStringList{"devs", " ops", authenticated} << 1;
    QTest::newRow("comments and blank lines") << "# token,user,uid,groups\n\n   \nt1,alice,1\n#t2,bob,2\n" << "t1" << "alice" << "1"
                                             << QStringList{authenticated} << 1;
    QTest::newRow("crlf") << "t1,alice,1,\"devs,ops\"\r\nt2,bob,2\r\n" << "t1" << "alice" << "1"
                          << QStringList{"devs", "ops", authenticated} << 2;
    QTest::newRow("no final newline") << "t2,bob,2\nt1,alice,1" << "t1" << "alice" << "1" << QStringList{authenticated} << 2;
    QTest::newRow("authenticated group not doubled") << "t1,alice,1,\"system:authenticated,devs\"" << "t1" << "alice" << "1"
                                                    << QStringList{authenticated, "devs"} << 1;
    QTest::newRow("unauthenticated group listed: nothing added") << "t1,alice,1,system:unauthenticated" << "t1" << "alice" << "1"
                                                                << QStringList{"system:unauthenticated"} << 1;
    QTest::newRow("node credentials") << "k1,system:node:n1,,system:nodes" << "k1" << "system:node:n1" << ""
                                      << QStringList{"system:nodes", authenticated} << 1;
    QTest::newRow("a # after the start is data") << "t#1,alice,1" << "t#1" << "alice" << "1" << QStringList{authenticated} << 1;
}

void TestTokenFile::parsesRecords()
{
    QFETCH(QString, text);
    QFETCH(QString, token);
    QFETCH(QString, name);
    QFETCH(QString, uid);
    QFETCH(QStringList, groups);
    QFETCH(int, size);

    const TokenFile file = parsed(text);
    QCOMPARE(file.size(), std::size_t(size));
    const auto user = file.authenticate((QStringLiteral("Bearer ") + token).toStdString());
    QVERIFY2(user.ok(), user.ok() ? "" : user.error().message.c_str());
    QCOMPARE(QString::fromStdString(user->name), name);
    QCOMPARE(QString::fromStdString(user->uid), uid);
    QCOMPARE(toStringList(user->groups), groups);
}

void TestTokenFile::rejectsMalformedFiles_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");

    QTest::newRow("two columns") << "t1,alice"
                                 << "token file line 1: must have at least 3 columns (token, user name, user uid), found 2";
    QTest::newRow("one column") << "# header\nt1"
                                << "token file line 2: must have at least 3 columns (token, user name, user uid), found 1";
    QTest::newRow("unquoted group list")
        << "t1,alice,1,devs,ops"
        << "token file line 1: found 5 columns, at most 4 are allowed (token, user name, user uid, groups); "
           "quote a groups column that lists several groups: \"group1,group2\"";
    QTest::newRow("bare quote") << "t1,al\"ice,1" << "token file line 1, column 6: bare \" in non-quoted field";
    QTest::newRow("text after closing quote") << "\"t1\"x,alice,1"
                                              << "token file line 1, column 5: extraneous or missing \" in quoted field";
    QTest::newRow("space before opening quote") << "t1,alice,1, \"devs,ops\""
                                                << "token file line 1, column 13: bare \" in non-quoted field";
    QTest::newRow("unterminated quote") << "t0,x,0\n\"t1,alice,1\nt2,bob,2"
                                        << "token file line 2, column 1: quoted field is not closed on its line";
    QTest::newRow("unterminated quote at the end") << "t1,alice,1,\"devs"
                                                   << "token file line 1, column 12: quoted field is not closed on its line";
    QTest::newRow("empty token") << ",alice,1" << "token file line 1: empty token";
    QTest::newRow("quoted empty token") << "\"\",alice,1" << "token file line 1: empty token";
    QTest::newRow("token with a space") << "\"t 1\",alice,1"
                                        << "token file line 1: the token contains whitespace, so no bearer header could carry it";
    QTest::newRow("token with a tab") << "t\t1,alice,1"
                                      << "token file line 1: the token contains whitespace, so no bearer header could carry it";
    QTest::newRow("empty user") << "t1,,1" << "token file line 1: empty user name";
    QTest::newRow("duplicate token") << "t1,alice,1\n# again\n\nt1,mallory,666"
                                     << "token file line 4: duplicate token (first defined on line 1)";
    QTest::newRow("duplicate token, crlf") << "t1,alice,1\r\nt1,alice,1\r\n"
                                           << "token file line 2: duplicate token (first defined on line 1)";
    QTest::newRow("duplicate token, quoted the second time") << "t1,alice,1\n\"t1\",bob,2"
                                                             << "token file line 2: duplicate token (first defined on line 1)";
}

void TestTokenFile::rejectsMalformedFiles()
{
    QFETCH(QString, text);
    QFETCH(QString, message);

    const auto file = TokenFile::parse(text.toStdString());
    QVERIFY(!file.ok());
    QCOMPARE(file.error().code, 400);
    QCOMPARE(QString::fromStdString(file.error().reason), QStringLiteral("BadRequest"));
    QCOMPARE(QString::fromStdString(file.error().message), message);
}

void TestTokenFile::errorsNeverEchoTheToken()
{
    const auto file = TokenFile::parse("s3cr3t-token,alice,1\ns3cr3t-token,bob,2\n");
    QVERIFY(!file.ok());
    QVERIFY(file.error().message.find("s3cr3t") == std::string::npos);
}

void TestTokenFile::readsHeaders_data()
{
    QTest::addColumn<QString>("header");
    QTest::addColumn<QString>("name"); // with anonymous requests allowed

    QTest::newRow("bearer") << "Bearer t1" << "alice";
    QTest::newRow("scheme in lower case") << "bearer t1" << "alice";
    QTest::newRow("scheme in upper case") << "BEARER t2" << "bob";
    QTest::newRow("surrounding whitespace trimmed") << "  Bearer t1 \t" << "alice";
    QTest::newRow("text after the token ignored") << "Bearer t1 trailing" << "alice";
    QTest::newRow("no header") << "" << "system:anonymous";
    QTest::newRow("whitespace only") << "   " << "system:anonymous";
    QTest::newRow("scheme alone") << "Bearer" << "system:anonymous";
    QTest::newRow("scheme and space") << "Bearer " << "system:anonymous";
    QTest::newRow("two spaces: empty token") << "Bearer  t1" << "system:anonymous";
    QTest::newRow("basic auth is not a bearer token") << "Basic YWxpY2U6cGFzcw==" << "system:anonymous";
    QTest::newRow("token without scheme") << "t1" << "system:anonymous";
}

void TestTokenFile::readsHeaders()
{
    QFETCH(QString, header);
    QFETCH(QString, name);

    TokenFile file = parsed(ALICE_FILE);
    file.setAnonymousAllowed(true);
    const auto user = file.authenticate(header.toStdString());
    QVERIFY2(user.ok(), user.ok() ? "" : user.error().message.c_str());
    QCOMPARE(QString::fromStdString(user->name), name);
    if (name == QStringLiteral("system:anonymous")) {
        QCOMPARE(*user, UserInfo::anonymous());
        QCOMPARE(toStringList(user->groups), QStringList{"system:unauthenticated"});
        QVERIFY(user->uid.empty());
    }
}

void TestTokenFile::unknownTokenIs401EvenWithAnonymous()
{
    TokenFile file = parsed(ALICE_FILE);
    file.setAnonymousAllowed(true);
    for (const char *header : {"Bearer nope", "Bearer t", "Bearer t1x", "Bearer T1", "bearer \"t1\""}) {
        const auto user = file.authenticate(header);
        QVERIFY2(!user.ok(), header);
        const nlohmann::json body = user.error().toJson();
        QCOMPARE(body.value("kind", ""), std::string("Status"));
        QCOMPARE(body.value("status", ""), std::string("Failure"));
        QCOMPARE(body.value("code", 0), 401);
        QCOMPARE(body.value("reason", ""), std::string("Unauthorized"));
        QCOMPARE(body.value("message", ""), std::string("Unauthorized"));
    }
}

void TestTokenFile::missingCredentialsAre401WithoutAnonymous()
{
    const TokenFile file = parsed(ALICE_FILE);
    QVERIFY(!file.anonymousAllowed());
    for (const char *header : {"", "Basic abc", "Bearer ", "Bearer nope"}) {
        const auto user = file.authenticate(header);
        QVERIFY2(!user.ok(), header);
        QCOMPARE(user.error().code, 401);
        QCOMPARE(user.error().message, std::string("Unauthorized"));
    }
    QVERIFY(file.authenticate("Bearer t1").ok());
}

void TestTokenFile::emptyFileRejectsEveryToken()
{
    TokenFile file = parsed(QStringLiteral("# nothing here\n\n"));
    QCOMPARE(file.size(), std::size_t(0));
    QCOMPARE(file.authenticate("Bearer t1").error().code, 401);
    file.setAnonymousAllowed(true);
    QCOMPARE(file.authenticate("").value(), UserInfo::anonymous());
    QCOMPARE(TokenFile().authenticate("Bearer x").error().code, 401);
}

void TestTokenFile::buildsFromUsersInCode()
{
    // Groups are taken whole: a comma is part of the name, not a separator.
    const auto file = TokenFile::fromUsers({{"t1", UserInfo{"alice", "uid-1", {"devs,ops"}}},
                                            {"t2", UserInfo{"system:node:n1", "", {"system:nodes"}}}});
    QVERIFY(file);
    QCOMPARE(file->size(), std::size_t(2));
    QVERIFY(!file->anonymousAllowed());
    const auto alice = file->authenticate("Bearer t1");
    QVERIFY(alice);
    QCOMPARE(alice->name, std::string("alice"));
    QCOMPARE(alice->uid, std::string("uid-1"));
    QCOMPARE(toStringList(alice->groups), QStringList({"devs,ops", "system:authenticated"}));
    QCOMPARE(file->authenticate("Bearer t2")->name, std::string("system:node:n1"));
    QCOMPARE(file->authenticate("Bearer t3").error().code, 401);
    QCOMPARE(TokenFile::fromUsers({})->size(), std::size_t(0));
}

void TestTokenFile::fromUsersKeepsParseRules()
{
    const auto noName = TokenFile::fromUsers({{"t1", UserInfo{"", "", {}}}});
    QVERIFY(!noName);
    QCOMPARE(noName.error().code, 400);
    QCOMPARE(noName.error().message, std::string("tokens: empty user name"));
    const auto noToken = TokenFile::fromUsers({{"", UserInfo{"alice", "", {}}}});
    QCOMPARE(noToken.error().message, std::string("token of user \"alice\": empty token"));
    const auto spaced = TokenFile::fromUsers({{"secret token", UserInfo{"alice", "", {}}}});
    QCOMPARE(spaced.error().message,
             std::string("token of user \"alice\": the token contains whitespace, so no bearer header could carry it"));
    QVERIFY(spaced.error().message.find("secret") == std::string::npos);
    const auto twice = TokenFile::fromUsers({{"t", UserInfo{"alice", "", {}}}, {"t", UserInfo{"bob", "", {}}}});
    QCOMPARE(twice.error().message, std::string("token of user \"bob\": duplicate token"));
}

void TestTokenFile::loadsFromDisk()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath(QStringLiteral("tokens.csv")).toStdString();
    std::ofstream(path) << ALICE_FILE.toStdString();
    const auto file = TokenFile::load(path);
    QVERIFY2(file.ok(), file.ok() ? "" : file.error().message.c_str());
    QCOMPARE(file->authenticate("Bearer t2")->name, std::string("bob"));

    const auto directory = TokenFile::load(dir.path().toStdString());
    QVERIFY(!directory.ok());
    QCOMPARE(QString::fromStdString(directory.error().message),
             QStringLiteral("unable to read token file \"%1\": is a directory").arg(dir.path()));

    std::ofstream(path) << "t1,alice\n";
    const auto broken = TokenFile::load(path);
    QVERIFY(!broken.ok());
    QCOMPARE(QString::fromStdString(broken.error().message),
             QString::fromStdString("token file \"" + path
                                    + "\" line 1: must have at least 3 columns (token, user name, user uid), found 2"));
}

void TestTokenFile::missingFileNamesThePath()
{
    const auto file = TokenFile::load("/nonexistent/rvscope/tokens.csv");
    QVERIFY(!file.ok());
    QCOMPARE(file.error().code, 400);
    QVERIFY2(file.error().message.starts_with("unable to read token file \"/nonexistent/rvscope/tokens.csv\": "),
             file.error().message.c_str());
}

void TestTokenFile::randomInputNeverCrashes()
{
    // Lines made of the characters the parser cares about: every outcome is a token file or
    // a 400 naming a line, never a crash or a silent half-parse.
    std::mt19937 random(7);
    const std::string alphabet = "\",\n\r# \tab";
    for (int round = 0; round < 5000; ++round) {
        std::string text;
        const int length = std::uniform_int_distribution<int>(0, 40)(random);
        for (int i = 0; i < length; ++i)
            text += alphabet[std::uniform_int_distribution<std::size_t>(0, alphabet.size() - 1)(random)];
        auto file = TokenFile::parse(text);
        if (!file.ok()) {
            QCOMPARE(file.error().code, 400);
            QVERIFY2(file.error().message.starts_with("token file line "), file.error().message.c_str());
            continue;
        }
        file->setAnonymousAllowed(round % 2 == 0);
        const auto user = file->authenticate("Bearer " + text.substr(0, text.find_first_of(",\n")));
        QVERIFY(user.ok() || user.error().code == 401);
    }
}

QTEST_GUILESS_MAIN(TestTokenFile)
#include "TestTokenFile.moc"
