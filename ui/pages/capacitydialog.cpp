#include "pages/capacitydialog.h"

#include "capacity/capacityoptions.h"
#include "charts/capacitychart.h"
#include "charts/comparecharts.h"
#include "control/runsetup.h"
#include "experiment/experimentplan.h"
#include "pages/capacitycards.h"
#include "parse/quantity.h"
#include "run/slo.h"
#include "settings/runsettings.h"
#include "text/format.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>

namespace wb::ui {

namespace {

/// The options asked in the dialog (the others keep their defaults), as the CLI names them.
constexpr std::string_view ASKED[] = { "trial", "final", "repeat", "precision", "budget", "from", "to" };

const CapacityOption* optionNamed(std::string_view key)
{
    for (const CapacityOption& o : capacityOptions())
        if (o.key == key) return &o;
    return nullptr;
}

/// What the intro and the SLO field show for a plan: its name and its first target's load.
LoadProfile profileOfPlan(const PlanSearchSetup& plan)
{
    LoadProfile p;
    p.name = plan.name;
    if (!plan.targets.empty()) p.load = plan.targets.front().second;
    return p;
}

} // namespace

CapacityDialog::CapacityDialog(
    std::vector<Target> targets, int64_t selected, LoadProfile profile, QString sessionPath, QWidget* parent)
    : QDialog(parent)
    , m_all(std::move(targets))
    , m_selected(selected)
    , m_list(new QListWidget(this))
    , m_profile(std::move(profile))
    , m_sessionPath(std::move(sessionPath))
    , m_slo(new QLineEdit(this))
    , m_problem(new QLabel(this))
    , m_status(new QLabel(this))
    , m_chart(new CapacityChart(this))
    , m_cards(new CapacityCards(this))
    , m_result(new QPlainTextEdit(this))
    , m_start(new QPushButton(tr("Start"), this))
    , m_stop(new QPushButton(tr("Stop"), this))
    , m_task(new CapacityTask(this))
{
    setObjectName(QStringLiteral("CapacityDialog"));
    const Target* first = nullptr;
    for (const Target& t : m_all)
        if (t.id == m_selected) first = &t;
    setWindowTitle(tr("Find capacity — %1").arg(first ? toQString(first->name) : QString()));

    auto* intro = new QLabel(this);
    intro->setObjectName(QStringLiteral("capacityIntro"));
    intro->setWordWrap(true);
    intro->setText(tr("The most load each checked target carries while every SLO holds: open-model trials at rising "
                      "rates, then bisection, with the profile “%1” (%2) for each trial; several targets take their "
                      "trials in turn and are compared with the first. A trial the loader could not make judges "
                      "nothing of the target.")
                       .arg(toQString(m_profile.name), describeLoad(m_profile.load)));
    m_list->setObjectName(QStringLiteral("capacityTargets"));
    for (const Target& t : m_all) {
        auto* item = new QListWidgetItem(toQString(t.name) + QStringLiteral("  ") + toQString(t.url), m_list);
        item->setData(Qt::UserRole, QVariant::fromValue<qint64>(t.id));
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(t.id == m_selected ? Qt::Checked : Qt::Unchecked);
        item->setForeground(colorForTarget(t.id).darker(110));
    }
    m_list->setMaximumHeight(std::min(120, 8 + 22 * static_cast<int>(m_all.size())));

    m_slo->setObjectName(QStringLiteral("sloEdit"));
    const RunSetting* slo = findRunSetting("slo");
    m_slo->setText(toQString(slo->text(m_profile.load)));
    m_slo->setPlaceholderText(tr("required, e.g. %1").arg(toQString(std::string(slo->example))));
    m_slo->setToolTip(toQString(std::string(slo->help)));
    auto* form = new QFormLayout;
    form->addRow(tr("Targets"), m_list);
    form->addRow(tr("SLOs"), m_slo);
    auto* grid = new QGridLayout;
    int column = 0;
    for (std::string_view key : ASKED) {
        const CapacityOption* o = optionNamed(key);
        if (!o) continue;
        auto* edit = new QLineEdit(this);
        edit->setObjectName(QStringLiteral("option_%1").arg(toQString(std::string(key))));
        edit->setPlaceholderText(toQString(o->defaultText()));
        edit->setToolTip(toQString(std::string(o->flag)) + QStringLiteral(": ") + toQString(std::string(o->help)));
        auto* label = new QLabel(toQString(std::string(o->flag)).mid(2), this);
        label->setBuddy(edit);
        grid->addWidget(label, column / 4 * 2, column % 4);
        grid->addWidget(edit, column / 4 * 2 + 1, column % 4);
        m_options.insert(toQString(std::string(key)), edit);
        ++column;
    }
    form->addRow(tr("Search"), grid);
    m_problem->setObjectName(QStringLiteral("capacityProblem"));
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(errorTextStyle());
    m_problem->hide();
    m_status->setObjectName(QStringLiteral("capacityStatus"));
    m_status->setWordWrap(true);
    m_status->setText(tr("Press Start: the targets are probed at rest, then the trials begin."));
    m_result->setObjectName(QStringLiteral("capacityResult"));
    m_result->setReadOnly(true);
    m_result->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_result->setPlaceholderText(tr("The result and what changed at the boundary appear here."));

    m_start->setObjectName(QStringLiteral("startSearch"));
    m_start->setDefault(true);
    m_stop->setObjectName(QStringLiteral("stopSearch"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_start, QDialogButtonBox::ActionRole);
    buttons->addButton(m_stop, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_start, &QPushButton::clicked, this, &CapacityDialog::startSearch);
    connect(m_stop, &QPushButton::clicked, this, &CapacityDialog::stopSearch);
    connect(m_slo, &QLineEdit::returnPressed, this, &CapacityDialog::startSearch);
    connect(m_task, &CapacityTask::progress, this, &CapacityDialog::trialEvent);
    connect(m_task, &CapacityTask::finished, this, &CapacityDialog::searchFinished);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(m_status);
    layout->addWidget(m_chart, 3);
    layout->addWidget(m_cards);
    layout->addWidget(m_result, 2);
    layout->addWidget(buttons);
    m_cards->hide();
    resize(760, 680);
    updateButtons();
}

CapacityDialog::CapacityDialog(
    std::vector<Target> planTargets, PlanSearchSetup plan, QString sessionPath, QWidget* parent)
    : CapacityDialog(std::move(planTargets), 0, profileOfPlan(plan), std::move(sessionPath), parent)
{
    m_selected = m_all.empty() ? 0 : m_all.front().id;
    setWindowTitle(tr("Find capacity — plan %1").arg(toQString(plan.name)));
    findChild<QLabel*>(QStringLiteral("capacityIntro"))
        ->setText(tr("The plan “%1” is a capacity search: the most load each of its targets carries while every SLO "
                     "holds, each trial the plan's load (%2) at the search's rate; the targets take their trials in "
                     "turn and are compared with the first. A trial the loader could not make judges nothing of the "
                     "target.")
                      .arg(toQString(plan.name), describeLoad(m_profile.load)));
    for (int i = 0; i < m_list->count(); ++i)
        m_list->item(i)->setCheckState(Qt::Checked);
    m_list->setToolTip(tr("The plan's targets: all of them are searched"));
    for (auto it = m_options.cbegin(); it != m_options.cend(); ++it) {
        const CapacityOption* o = optionNamed(it.key().toStdString());
        if (const std::string text = o->text(plan.options); text != o->defaultText())
            it.value()->setText(toQString(text));
    }
    m_plan = std::move(plan);
    updateButtons();
}

CapacityDialog::~CapacityDialog() = default; // the task is a child: its destructor stops and joins

bool CapacityDialog::startSearch()
{
    if (isSearching()) return false;
    const auto problem = [this](const QString& text) {
        m_problem->setText(text);
        m_problem->show();
        return false;
    };
    m_targets = chosenTargets();
    if (m_targets.empty()) return problem(tr("Check a target to search."));
    RunConfig load = m_profile.load;
    if (Status st = findRunSetting("slo")->read(load, m_slo->text().trimmed().toStdString()); !st)
        return problem(tr("SLOs: %1").arg(toQString(st.error())));
    if (load.slos.empty())
        return problem(tr("Give at least one SLO (e.g. p99<50ms, errors<0.1%): the capacity is the most load that "
                          "keeps them."));
    CapacityOptions options;
    for (auto it = m_options.cbegin(); it != m_options.cend(); ++it) {
        const QString text = it.value()->text().trimmed();
        if (text.isEmpty()) continue;
        const CapacityOption* o = optionNamed(it.key().toStdString());
        if (Status st = o->read(options, text.toStdString()); !st)
            return problem(tr("%1: %2").arg(toQString(std::string(o->flag)), toQString(st.error())));
    }
    if (Status st = options.validate(); !st) return problem(toQString(st.error()));
    // Each trial's settings: the profile's, but the rate and the length are the search's.
    load.ratePerS = 0;
    load.stages.clear();
    load.sloAbort = false;
    std::vector<std::pair<std::string, RunConfig>> targets;
    std::vector<int64_t> ids;
    if (m_plan) { // every target of the plan, each with the plan's load and the SLOs given here
        m_targets = m_all;
        for (size_t i = 0; i < m_plan->targets.size(); ++i) {
            RunConfig config = m_plan->targets[i].second;
            config.slos = load.slos;
            targets.emplace_back(m_plan->targets[i].first, std::move(config));
        }
        ids = m_plan->sessionTargetIds;
    }
    for (const Target& t : m_plan ? std::vector<Target> {} : m_targets) {
        auto config = runConfigFor(t, load);
        if (!config) return problem(tr("%1: %2").arg(toQString(t.name), toQString(config.error())));
        targets.emplace_back(t.url, std::move(*config));
        ids.push_back(t.id); // each trial a run of this target, as its runs from the window are
    }
    m_problem->hide();
    double sloP99Ms = NAN;
    for (const Slo& s : load.slos)
        if (s.metric == Slo::Metric::Latency && s.stat == Slo::Stat::Percentile && s.percentile == 99)
            sloP99Ms = s.threshold / 1000.0;
    const auto [names, colors] = legend();
    m_chart->setTargets(names, colors);
    m_chart->setSloP99Ms(sloP99Ms);
    m_result->clear();
    m_cards->setCards({});
    m_status->setText(tr("Probing the targets at rest…"));
    if (!m_task->start(m_sessionPath, std::move(targets), std::move(ids), options,
            m_plan ? m_plan->name : std::string(), m_plan && m_plan->warmupGiven))
        return false;
    updateButtons();
    return true;
}

void CapacityDialog::stopSearch()
{
    if (!isSearching()) return;
    m_status->setText(tr("Stopping: what was measured is kept…"));
    m_task->stop();
}

std::pair<QStringList, QList<QColor>> CapacityDialog::legend() const
{
    std::pair<QStringList, QList<QColor>> out;
    for (const Target& t : m_targets) {
        out.first << toQString(t.name);
        out.second << colorForTarget(t.id);
    }
    return out;
}

std::vector<Target> CapacityDialog::chosenTargets() const
{
    std::vector<Target> chosen;
    for (int pass = 0; pass < 2; ++pass) // the selected target first: the baseline
        for (int i = 0; i < m_list->count(); ++i) {
            const QListWidgetItem* item = m_list->item(i);
            const int64_t id = item->data(Qt::UserRole).toLongLong();
            if (item->checkState() != Qt::Checked || (id == m_selected) != (pass == 0)) continue;
            for (const Target& t : m_all)
                if (t.id == id) chosen.push_back(t);
        }
    return chosen;
}

void CapacityDialog::setTargetChecked(int64_t targetId, bool checked)
{
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->data(Qt::UserRole).toLongLong() == targetId)
            m_list->item(i)->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
}

bool CapacityDialog::isSearching() const
{
    return m_task->isActive();
}

QString CapacityDialog::statusText() const
{
    return m_status->text();
}

QString CapacityDialog::resultText() const
{
    return m_result->toPlainText();
}

void CapacityDialog::reject()
{
    // Closing stops the search; what it measured stays in the session (stopped, resumable).
    if (isSearching()) {
        m_task->stop();
        m_task->waitForFinished();
    }
    QDialog::reject();
}

void CapacityDialog::trialEvent(const CapacityTrialEvent& e)
{
    const QString who = m_targets.size() > 1 && e.target < static_cast<int>(m_targets.size())
        ? toQString(m_targets[static_cast<size_t>(e.target)].name) + QStringLiteral(" ")
        : QString();
    const auto bracket = [&] {
        if (e.lowerPerS <= 0 && e.upperPerS <= 0) return QString();
        return tr(" · bracket %1–%2 req/s")
            .arg(e.lowerPerS > 0 ? toQString(rateText(e.lowerPerS)) : QStringLiteral("?"),
                e.upperPerS > 0 ? toQString(rateText(e.upperPerS)) : QStringLiteral("?"));
    };
    if (!e.judged) {
        m_status->setText(tr("Trial %1: %2%3 req/s for %4%5 · %6 of the budget left")
                              .arg(e.number)
                              .arg(who, toQString(rateText(e.ratePerS)),
                                  toQString(wb::durationText(static_cast<uint64_t>(e.durationS * 1e6))), bracket(),
                                  toQString(wallTimeText(e.budgetLeftS))));
        return;
    }
    CapacityChartPoint point;
    point.target = e.target;
    point.ratePerS = e.ratePerS;
    point.p99Ms = e.p99Ms;
    point.state = e.loaderLimited ? CapacityChartPoint::State::LoaderLimited
        : e.passed                ? CapacityChartPoint::State::Passed
                                  : CapacityChartPoint::State::Failed;
    m_chart->addPoint(point);
    m_chart->setBracket(e.target, e.lowerPerS, e.upperPerS);
    m_result->appendPlainText(tr("%1 %2%3 req/s: %4 %5%6")
                                  .arg(e.number, 3)
                                  .arg(who, toQString(rateText(e.ratePerS)),
                                      e.loaderLimited ? tr("LOADER")
                                          : e.passed  ? tr("passed")
                                                      : tr("FAILED"),
                                      e.verdicts, e.loaderLimited ? QStringLiteral("; ") + e.loaderReason : QString()));
    m_status->setText(tr("Trial %1 done%2 · %3 of the budget left")
                          .arg(e.number)
                          .arg(bracket(), toQString(wallTimeText(e.budgetLeftS))));
}

void CapacityDialog::searchFinished(const CapacityTaskResult& r)
{
    QString text;
    for (const CapacityReportTarget& t : r.report.targets)
        text += toQString(capacitySummaryText(t, r.report.options));
    text += toQString(capacityComparisonText(r.report));
    m_result->setPlainText(text);
    const auto [names, colors] = legend();
    m_cards->setCards(capacityCards(r.report, names, colors));
    for (int t = 0; t < static_cast<int>(r.report.targets.size()); ++t) {
        const CapacityResult& c = r.report.targets[static_cast<size_t>(t)].result;
        m_chart->setBracket(t, c.lowerPerS, c.upperPerS);
    }
    QString status = !r.error.isEmpty() ? tr("The search ended on an error: %1").arg(r.error)
        : r.stopped                     ? tr("Stopped: the brackets above are what was measured.")
                                        : tr("Done.");
    if (r.searchId > 0)
        status += QStringLiteral(" ")
            + tr("Stored as experiment %1 (Experiments)%2.")
                  .arg(r.searchId)
                  .arg(r.stopped || !r.ok ? tr("; go on with: wrkbench-cli capacity --db %1 --resume %2")
                                                .arg(m_sessionPath)
                                                .arg(r.searchId)
                                          : QString());
    m_status->setText(status);
    m_status->setStyleSheet(r.error.isEmpty() ? QString() : errorTextStyle());
    updateButtons();
    if (r.searchId > 0) emit searchStored(r.searchId);
}

void CapacityDialog::updateButtons()
{
    const bool searching = isSearching();
    m_start->setEnabled(!searching);
    m_stop->setEnabled(searching);
    m_slo->setReadOnly(searching);
    m_list->setEnabled(!searching && !m_plan);
    for (QLineEdit* edit : std::as_const(m_options))
        edit->setReadOnly(searching);
}

} // namespace wb::ui
