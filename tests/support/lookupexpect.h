#pragma once

// Assertions on a hiera::LookupResult for the engine suites: found with a value, failed with a code,
// and the error's text for messages.

#include <hiera/engine.h>

#include <QString>
#include <QTest>

inline QString errorText(const hiera::LookupResult& r)
{
    return r.error ? QString::fromUtf8(r.error->what()) : QStringLiteral("<no error>");
}

#define EXPECT_FOUND(r, expectedValue)                                                                                 \
    do {                                                                                                               \
        if ((r).error)                                                                                                 \
            QFAIL((r).error->what());                                                                                  \
        QVERIFY2((r).found(), "not found");                                                                            \
        QCOMPARE((r).value, (expectedValue));                                                                          \
    } while (false)

#define EXPECT_ERROR(r, expectedCode)                                                                                  \
    do {                                                                                                               \
        QCOMPARE(int((r).status), int(hiera::LookupResult::Status::Error));                                            \
        QVERIFY((r).error.has_value());                                                                                \
        QCOMPARE((r).error->code(), (expectedCode));                                                                   \
    } while (false)
