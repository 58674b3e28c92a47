#include "pages/metricsfield.h"

#include "prometheus/scrape/scraper.h"
#include "record/recordedrun.h"

#include <QCoreApplication>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QRegularExpression>
#include <thread>

namespace wb::ui {

namespace {

QString describe(const std::vector<ScrapeCheck>& checks)
{
    QStringList lines;
    for (const ScrapeCheck& c : checks) {
        const QString name = QString::fromStdString(c.endpoint);
        if (!c.error.empty()) {
            lines << (name.isEmpty() ? QString::fromStdString(c.error)
                                     : MetricsField::tr("%1: %2").arg(name, QString::fromStdString(c.error)));
            continue;
        }
        QStringList kept;
        for (const std::string& k : c.kept)
            kept << QString::fromStdString(k);
        QString line = kept.isEmpty()
            ? MetricsField::tr(
                "%1: %n series, none kept (no preset applies; set a filter)", nullptr, static_cast<int>(c.samplesSeen))
                  .arg(name)
            : MetricsField::tr("%1: %n series; keeps %2", nullptr, static_cast<int>(c.samplesSeen))
                  .arg(name, kept.join(QStringLiteral(", ")));
        if (!c.warnings.empty()) line += QStringLiteral(" (") + QString::fromStdString(c.warnings.front()) + ')';
        lines << line;
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace

MetricsField::MetricsField(QWidget* parent)
    : QWidget(parent)
    , m_endpoints(new QLineEdit(this))
    , m_filter(new QLineEdit(this))
    , m_check(new QPushButton(tr("Check"), this))
    , m_result(new QLabel(this))
{
    m_endpoints->setObjectName(QStringLiteral("metricsEndpoints"));
    m_endpoints->setPlaceholderText(tr("node=http://10.0.0.5:9100/metrics, http://builtin/metrics"));
    m_endpoints->setToolTip(tr("Prometheus or OpenMetrics endpoints read during every run of this target: "
                               "before, every interval, after (docs/METRICS.md). Comma-separated NAME=URL."));
    m_filter->setObjectName(QStringLiteral("metricsFilter"));
    m_filter->setPlaceholderText(tr("more series: a regular expression of metric names"));
    m_filter->setToolTip(tr("Series kept besides the presets' (node_exporter CPU, Envoy, nginx exporter, the "
                            "built-in server): metric names matching this expression as a whole."));
    m_check->setObjectName(QStringLiteral("metricsCheck"));
    m_check->setToolTip(tr("Read each endpoint once and say what a run would keep"));
    m_result->setObjectName(QStringLiteral("metricsResult"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_endpoints, 0, 0);
    layout->addWidget(m_check, 0, 1);
    layout->addWidget(m_filter, 1, 0, 1, 2);
    layout->addWidget(m_result, 2, 0, 1, 2);
    m_result->hide();
    for (QLineEdit* edit : { m_endpoints, m_filter })
        connect(edit, &QLineEdit::textEdited, this, &MetricsField::edited);
    connect(m_check, &QPushButton::clicked, this, &MetricsField::runCheck);
}

QString MetricsField::endpointsText(const ScrapeSpec& spec)
{
    QStringList items;
    for (const ScrapeEndpoint& e : spec.endpoints)
        items << QString::fromStdString(e.name + "=" + e.url);
    return items.join(QStringLiteral(", "));
}

void MetricsField::setSpec(const ScrapeSpec& spec)
{
    m_endpoints->setText(endpointsText(spec));
    m_filter->setText(QString::fromStdString(spec.metricRegex));
    m_result->clear();
    m_result->hide();
    ++m_checkSerial;
}

Result<ScrapeSpec> MetricsField::spec() const
{
    ScrapeSpec spec;
    const QStringList items
        = m_endpoints->text().split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
    for (const QString& item : items) {
        auto endpoint = parseScrapeEndpoint(item.toStdString());
        if (!endpoint) return Error { endpoint.error() };
        spec.endpoints.push_back(*endpoint);
    }
    spec.metricRegex = m_filter->text().trimmed().toStdString();
    if (auto st = spec.validate(); !st) return Error { st.error() };
    return spec;
}

QString MetricsField::checkText() const
{
    return m_result->text();
}

void MetricsField::runCheck()
{
    auto spec = this->spec();
    m_result->show();
    if (!spec) {
        m_result->setText(QString::fromStdString(spec.error()));
        emit checked();
        return;
    }
    if (!spec->enabled()) {
        m_result->setText(tr("No endpoint to check."));
        emit checked();
        return;
    }
    m_result->setText(tr("checking…"));
    const int serial = ++m_checkSerial;
    QPointer<MetricsField> self(this);
    // Off the UI thread: an endpoint may take seconds to answer (or never does).
    std::thread([self, serial, spec = *spec] {
        auto resolved = resolveBuiltinScrape(spec);
        const QString text = resolved ? describe(Scraper::check(*resolved)) : QString::fromStdString(resolved.error());
        QMetaObject::invokeMethod(
            qApp,
            [self, serial, text] {
                if (!self || self->m_checkSerial != serial) return; // closed, or another check since
                self->m_result->setText(text);
                emit self->checked();
            },
            Qt::QueuedConnection);
    }).detach();
}

} // namespace wb::ui
