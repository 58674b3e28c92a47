#include "pages/planeditor.h"

#include "forms/formvalidation.h"
#include "pages/dialogs.h"
#include "parse/quantity.h"
#include "run/slo.h"
#include "session/sessiondocument.h"
#include "settings/runsettings.h"
#include "text/format.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <optional>

namespace wb::ui {

namespace {

/// Thrown inside plan() only: each field's problem ends the check, named as the form labels it.
struct FormProblem
{
    std::string message;
};

std::string text(const QLineEdit* edit)
{
    return edit->text().trimmed().toStdString();
}

uint64_t durationOf(const QLineEdit* edit, const char* label)
{
    auto us = parseDurationUs(text(edit));
    if (!us) throw FormProblem { std::string(label) + ": " + us.error() };
    return *us;
}

/// A session target as a plan names it (its URL, request, TLS and protocol; its id, so a renamed
/// target is still found). Null when its URL does not parse (it cannot run either).
std::optional<ExperimentTarget> experimentTargetOf(const Target& target)
{
    auto url = parseUrl(target.url);
    if (!url) return std::nullopt;
    ExperimentTarget t;
    t.name = target.name;
    t.request.url = *url;
    t.request.method = target.method.empty() ? "GET" : target.method;
    t.request.headers = target.headers;
    t.request.body = target.body;
    t.tls = target.tls;
    t.httpVersion = target.httpVersion;
    t.requestsPath = target.requestMix;
    t.mix.order = target.mixOrder;
    t.sessionTargetId = target.id;
    return t;
}

QString keyOf(const RunSetting& setting)
{
    return QString::fromLatin1(setting.key.data(), static_cast<qsizetype>(setting.key.size()));
}

/// The load settings the plan editor offers for every level: a plan's load settings that the
/// window shows (settings/runsettings.h), its details (flow control, send spin) left to plan files.
bool offered(const RunSetting& setting)
{
    return setting.plan == PlanPlace::Load && !setting.label.empty() && !setting.advanced && !setting.flag;
}

/// True when the levels are one axis swept over a common load (what the form can show and edit).
bool isSweep(const ExperimentPlan& plan, bool* matchThreads)
{
    if (plan.axis.empty() || plan.levels.empty()) return false;
    *matchThreads = plan.axis == "connections";
    for (const LoadLevel& l : plan.levels)
        *matchThreads = *matchThreads && l.load.threads == l.load.connections;
    const RunSetting* axis = findRunSetting(plan.axis);
    if (!axis) return false;
    const RunConfig& first = plan.levels.front().load;
    for (const LoadLevel& l : plan.levels) {
        // The same load as the first level but for the axis (and the threads matched to it).
        RunConfig expected = first;
        if (!axis->read(expected, axis->text(l.load)).ok()) return false;
        if (*matchThreads) expected.threads = l.load.threads;
        if (!sameLoad(expected, l.load) || l.label != sweepLevelLabel(plan.axis, l.load)) return false;
    }
    return true;
}

QString axisValueText(const std::string& axis, const RunConfig& c)
{
    const RunSetting* setting = findRunSetting(axis);
    const std::string text = setting ? setting->text(c) : std::string();
    // Churn's off, the keep-alive a sweep compares it with, as the values field takes it.
    return text.empty() ? QStringLiteral("off") : QString::fromStdString(text);
}

constexpr char KEPT_LEVELS[] = "levels";

} // namespace

PlanEditor::PlanEditor(SessionDocument* doc, QWidget* parent)
    : QDialog(parent)
    , m_doc(doc)
{
    setObjectName(QStringLiteral("PlanEditor"));
    setWindowTitle(tr("New experiment"));
    build();
    fillTargets();
    updateSummary();
}

void PlanEditor::build()
{
    auto line = [this](const char* name, const QString& placeholder, const QString& tip) {
        auto* edit = new QLineEdit(this);
        edit->setObjectName(QString::fromLatin1(name));
        edit->setPlaceholderText(placeholder);
        edit->setToolTip(tip);
        connect(edit, &QLineEdit::textChanged, this, &PlanEditor::updateSummary);
        return edit;
    };
    m_name = line("planName", tr("e.g. NEG vs NodePort"), tr("Shown in the list and the reports"));

    m_targets = new QTableWidget(0, TARGET_COLUMNS, this);
    m_targets->setObjectName(QStringLiteral("planTargets"));
    m_targets->setHorizontalHeaderLabels({ tr("Use"), tr("Target"), tr("Baseline"), tr("Group") });
    m_targets->verticalHeader()->hide();
    m_targets->horizontalHeader()->setSectionResizeMode(NameColumn, QHeaderView::Stretch);
    m_targets->horizontalHeader()->setSectionResizeMode(UseColumn, QHeaderView::ResizeToContents);
    m_targets->horizontalHeader()->setSectionResizeMode(BaselineColumn, QHeaderView::ResizeToContents);
    m_targets->setMinimumHeight(140);
    m_targets->setToolTip(tr("The variants to compare. Each is compared with the baseline of its group; with groups "
                             "(cluster sizes, frameworks) every used target needs one, and each group one baseline."));
    connect(m_targets, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (m_filling) return;
        // One baseline per group: ticking one unticks the others of its group.
        if (item->column() == BaselineColumn && item->checkState() == Qt::Checked) {
            const QString group = m_targets->item(item->row(), GroupColumn)->text().trimmed();
            m_filling = true;
            for (int r = 0; r < m_targets->rowCount(); ++r)
                if (r != item->row() && m_targets->item(r, GroupColumn)->text().trimmed() == group)
                    m_targets->item(r, BaselineColumn)->setCheckState(Qt::Unchecked);
            m_filling = false;
        }
        updateSummary();
    });

    m_axis = new QComboBox(this);
    m_axis->setObjectName(QStringLiteral("planAxis"));
    for (const RunSetting& setting : runSettings())
        if (setting.sweepable && !setting.label.empty())
            m_axis->addItem(
                QString::fromUtf8(setting.label.data(), static_cast<qsizetype>(setting.label.size())), keyOf(setting));
    m_axis->addItem(tr("one level"), QString());
    m_axis->setToolTip(tr("The load axis swept: each value is a level (a cell of the results), run against every "
                          "target"));
    m_values = line("planValues", QStringLiteral("25, 50, 100"),
        tr("The levels of the swept axis, e.g. 25, 50, 100; for \"Reopen after\": off, 100, 1000 (keep-alive against "
           "churn)"));
    m_matchThreads = new QCheckBox(tr("as many threads"), this);
    m_matchThreads->setObjectName(QStringLiteral("planMatchThreads"));
    m_matchThreads->setToolTip(tr("Each level runs one thread per connection (-t = -c), as the NEG-vs-NodePort study"));
    auto* levelRow = new QHBoxLayout;
    levelRow->addWidget(m_axis);
    levelRow->addWidget(m_values, 1);
    levelRow->addWidget(m_matchThreads);
    connect(m_axis, &QComboBox::currentIndexChanged, this, [this] {
        updateAxisFields();
        updateSummary();
    });
    connect(m_matchThreads, &QCheckBox::toggled, this, [this] {
        updateAxisFields();
        updateSummary();
    });

    // Every level's load: one field per load setting a plan has, read as the window's profile and
    // the CLI read it (settings/runsettings.h), in a grid of label and field pairs.
    auto* loadRow = new QGridLayout;
    int column = 0, row = 0;
    for (const RunSetting& setting : runSettings()) {
        if (!offered(setting)) continue;
        // "connect_timeout" -> "planConnectTimeout"
        std::string name = "plan";
        bool upper = true;
        for (const char c : setting.key) {
            if (c == '_') {
                upper = true;
                continue;
            }
            name += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
            upper = false;
        }
        auto* edit = line(name.c_str(),
            QString::fromStdString(setting.example.empty() ? setting.defaultText() : std::string(setting.example)),
            QString::fromUtf8(setting.help.data(), static_cast<qsizetype>(setting.help.size())));
        m_load.insert(keyOf(setting), edit);
        loadRow->addWidget(
            new QLabel(QString::fromUtf8(setting.label.data(), static_cast<qsizetype>(setting.label.size())), this),
            row, column);
        loadRow->addWidget(edit, row, column + 1);
        column += 2;
        if (column == 6) {
            column = 0;
            ++row;
        }
    }

    m_repetitions = new QSpinBox(this);
    m_repetitions->setObjectName(QStringLiteral("planRepetitions"));
    m_repetitions->setRange(1, 1000);
    m_repetitions->setToolTip(tr("Runs per level and target. Two can only show large differences; the verdict says "
                                 "how many would detect a 10% difference."));
    connect(m_repetitions, &QSpinBox::valueChanged, this, &PlanEditor::updateSummary);
    m_duration = line("planDuration", QStringLiteral("10s"), tr("Measured time of each run"));
    m_warmup = line("planWarmup", QStringLiteral("2s"), tr("Load before measuring, each run (not recorded)"));
    m_cooldown = line("planCooldown", QStringLiteral("2s"), tr("Idle time between two runs"));
    m_order = new QComboBox(this);
    m_order->setObjectName(QStringLiteral("planOrder"));
    m_order->addItem(tr("interleaved (A B A B …)"), static_cast<int>(ExperimentOrder::Interleaved));
    m_order->addItem(tr("sequential (A A … B B …)"), static_cast<int>(ExperimentOrder::Sequential));
    m_order->setToolTip(tr("Interleaved: drift over time (a warming cache, a noisy neighbour) hits every target "
                           "alike"));
    connect(m_order, &QComboBox::currentIndexChanged, this, &PlanEditor::updateSummary);
    auto* timeRow = new QHBoxLayout;
    timeRow->addWidget(m_repetitions);
    timeRow->addWidget(new QLabel(tr("× duration"), this));
    timeRow->addWidget(m_duration, 1);
    timeRow->addWidget(new QLabel(tr("warm-up"), this));
    timeRow->addWidget(m_warmup, 1);
    timeRow->addWidget(new QLabel(tr("cool-down"), this));
    timeRow->addWidget(m_cooldown, 1);
    m_slos = line("planSlos", QStringLiteral("p99<250ms, errors<0.1%"),
        tr("Thresholds every run is judged by, as the profile's SLO field"));

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("planSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* open = new QPushButton(tr("Open plan…"), this);
    open->setObjectName(QStringLiteral("planOpenButton"));
    auto* save = new QPushButton(tr("Save plan…"), this);
    save->setObjectName(QStringLiteral("planSaveButton"));
    save->setToolTip(tr("The plan as JSON, as wrkbench-cli experiment PLAN takes it"));
    auto* cancel = new QPushButton(tr("Cancel"), this);
    m_create = new QPushButton(tr("Create"), this);
    m_create->setObjectName(QStringLiteral("planCreateButton"));
    m_create->setToolTip(tr("Add the experiment to the session, planned; Run starts it"));
    m_createAndRun = new QPushButton(tr("Create and run"), this);
    m_createAndRun->setObjectName(QStringLiteral("planCreateRunButton"));
    m_createAndRun->setDefault(true);
    connect(open, &QPushButton::clicked, this, &PlanEditor::askOpen);
    connect(save, &QPushButton::clicked, this, &PlanEditor::askSave);
    connect(cancel, &QPushButton::clicked, this, &QDialog::reject);
    connect(m_create, &QPushButton::clicked, this, [this] { finish(false); });
    connect(m_createAndRun, &QPushButton::clicked, this, [this] { finish(true); });
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(open);
    buttons->addWidget(save);
    buttons->addStretch(1);
    buttons->addWidget(cancel);
    buttons->addWidget(m_create);
    buttons->addWidget(m_createAndRun);

    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("Targets"), m_targets);
    form->addRow(tr("Levels"), levelRow);
    form->addRow(tr("Load"), loadRow);
    form->addRow(tr("Repetitions"), timeRow);
    form->addRow(tr("Order"), m_order);
    form->addRow(tr("SLOs"), m_slos);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form, 1);
    layout->addWidget(m_summary);
    layout->addLayout(buttons);
    resize(760, 560);
}

void PlanEditor::fillTargets()
{
    if (!m_doc) return;
    for (const Target& t : m_doc->targets())
        if (auto target = experimentTargetOf(t)) addRow(Row { *target, true }, false);
}

void PlanEditor::addRow(const Row& row, bool use)
{
    const bool wasFilling = m_filling;
    m_filling = true;
    m_rows.push_back(row);
    const int r = m_targets->rowCount();
    m_targets->insertRow(r);
    auto* useItem = new QTableWidgetItem;
    useItem->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
    useItem->setCheckState(use ? Qt::Checked : Qt::Unchecked);
    m_targets->setItem(r, UseColumn, useItem);
    const QString url = QString::fromStdString(row.target.request.method + " " + row.target.request.url.displayText());
    auto* name = new QTableWidgetItem(
        QString::fromStdString(row.target.name) + (row.inSession ? QString() : tr("  (new: from the plan file)")));
    name->setFlags(Qt::ItemIsEnabled);
    name->setToolTip(url);
    m_targets->setItem(r, NameColumn, name);
    auto* baseline = new QTableWidgetItem;
    baseline->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
    baseline->setCheckState(row.target.baseline ? Qt::Checked : Qt::Unchecked);
    m_targets->setItem(r, BaselineColumn, baseline);
    m_targets->setItem(r, GroupColumn, new QTableWidgetItem(QString::fromStdString(row.target.group)));
    m_filling = wasFilling;
}

void PlanEditor::setTemplate()
{
    ExperimentPlan plan;
    for (size_t i = 0; i < m_rows.size() && plan.targets.size() < 2; ++i) {
        plan.targets.push_back(m_rows[i].target);
        plan.targets.back().baseline = plan.targets.size() == 1;
    }
    const RunConfig base = m_base;
    plan.axis = "connections";
    plan.levels.clear();
    for (unsigned c : { 25u, 50u }) {
        LoadLevel level { "", static_cast<double>(c), base };
        level.load.connections = c;
        level.label = sweepLevelLabel(plan.axis, level.load);
        plan.levels.push_back(level);
    }
    plan.warmupUs = 2'000'000;
    plan.cooldownUs = 2'000'000;
    setPlan(plan);
}

void PlanEditor::setPlan(const ExperimentPlan& plan)
{
    m_filling = true;
    m_name->setText(QString::fromStdString(plan.name));
    m_description = plan.description;
    for (int r = 0; r < m_targets->rowCount(); ++r) {
        m_targets->item(r, UseColumn)->setCheckState(Qt::Unchecked);
        m_targets->item(r, BaselineColumn)->setCheckState(Qt::Unchecked);
        m_targets->item(r, GroupColumn)->setText(QString());
    }
    for (const ExperimentTarget& t : plan.targets) {
        auto it = std::find_if(m_rows.begin(), m_rows.end(), [&](const Row& r) { return r.target.name == t.name; });
        if (it == m_rows.end()) {
            addRow(Row { t, false }, true);
            continue;
        }
        // The plan's request is what its runs send (ExperimentRunner::create warns when it differs).
        const int64_t sessionId = it->target.sessionTargetId;
        it->target = t;
        if (!it->target.sessionTargetId) it->target.sessionTargetId = sessionId;
        const int r = static_cast<int>(it - m_rows.begin());
        m_targets->item(r, UseColumn)->setCheckState(Qt::Checked);
        m_targets->item(r, BaselineColumn)->setCheckState(t.baseline ? Qt::Checked : Qt::Unchecked);
        m_targets->item(r, GroupColumn)->setText(QString::fromStdString(t.group));
    }
    // The used targets first, in the plan's order: that order is the table's and the charts'.
    for (size_t i = 0; i < plan.targets.size(); ++i) {
        auto it = std::find_if(
            m_rows.begin(), m_rows.end(), [&](const Row& r) { return r.target.name == plan.targets[i].name; });
        if (it == m_rows.end()) continue;
        const int from = static_cast<int>(it - m_rows.begin());
        if (from == static_cast<int>(i)) continue;
        std::rotate(m_rows.begin() + static_cast<long>(i), it, it + 1);
        QList<QTableWidgetItem*> items;
        for (int c = 0; c < TARGET_COLUMNS; ++c)
            items << m_targets->takeItem(from, c);
        m_targets->removeRow(from);
        m_targets->insertRow(static_cast<int>(i));
        for (int c = 0; c < TARGET_COLUMNS; ++c)
            m_targets->setItem(static_cast<int>(i), c, items[c]);
    }

    bool match = false;
    const int kept = m_axis->findData(QString::fromLatin1(KEPT_LEVELS));
    if (kept >= 0) m_axis->removeItem(kept);
    m_keptLevels.clear();
    m_base = plan.levels.empty() ? m_base : plan.levels.front().load;
    if (isSweep(plan, &match)) {
        m_axis->setCurrentIndex(m_axis->findData(QString::fromStdString(plan.axis)));
        QStringList values;
        for (const LoadLevel& l : plan.levels)
            values << axisValueText(plan.axis, l.load);
        m_values->setText(values.join(QStringLiteral(", ")));
        m_matchThreads->setChecked(match);
    } else if (plan.levels.size() == 1 && plan.axis.empty()) {
        m_axis->setCurrentIndex(m_axis->findData(QString()));
        m_values->clear();
    } else {
        // Hand-written levels: shown by their labels and kept as written.
        m_keptLevels = plan.levels;
        m_axis->addItem(tr("as in the plan file"), QString::fromLatin1(KEPT_LEVELS));
        m_axis->setCurrentIndex(m_axis->count() - 1);
        QStringList labels;
        for (const LoadLevel& l : plan.levels)
            labels << QString::fromStdString(l.label);
        m_values->setText(labels.join(QStringLiteral(", ")));
        m_values->setProperty("keptAxis", QString::fromStdString(plan.axis));
    }
    for (auto it = m_load.cbegin(); it != m_load.cend(); ++it)
        it.value()->setText(QString::fromStdString(findRunSetting(it.key().toStdString())->text(m_base)));
    m_repetitions->setValue(static_cast<int>(plan.repetitions));
    m_duration->setText(QString::fromStdString(planDurationText(plan.durationUs)));
    m_warmup->setText(QString::fromStdString(planDurationText(plan.warmupUs)));
    m_cooldown->setText(QString::fromStdString(planDurationText(plan.cooldownUs)));
    m_order->setCurrentIndex(plan.order == ExperimentOrder::Sequential ? 1 : 0);
    QStringList slos;
    for (const Slo& slo : plan.slos)
        slos << QString::fromStdString(slo.expr);
    m_slos->setText(slos.join(QStringLiteral(", ")));
    m_filling = false;
    updateAxisFields();
    updateSummary();
}

void PlanEditor::updateAxisFields()
{
    const QString axis = m_axis->currentData().toString();
    const bool kept = axis == QLatin1String(KEPT_LEVELS);
    const bool swept = !axis.isEmpty() && !kept;
    m_values->setEnabled(swept);
    m_matchThreads->setEnabled(axis == QLatin1String("connections"));
    // What the levels decide is not asked twice.
    for (auto it = m_load.cbegin(); it != m_load.cend(); ++it)
        it.value()->setEnabled(!kept && axis != it.key()
            && !(it.key() == QLatin1String("threads") && axis == QLatin1String("connections")
                && m_matchThreads->isChecked()));
}

Result<ExperimentPlan> PlanEditor::plan() const
{
    ExperimentPlan p;
    try {
        p.name = text(m_name);
        p.description = m_description;
        for (int r = 0; r < m_targets->rowCount(); ++r) {
            if (m_targets->item(r, UseColumn)->checkState() != Qt::Checked) continue;
            ExperimentTarget t = m_rows[static_cast<size_t>(r)].target;
            // JSON carries text: a binary body would not be what the runs send.
            if (!isTextBody(t.request.body))
                throw FormProblem { "target '" + t.name + "' has a binary body: a plan carries text bodies only" };
            t.baseline = m_targets->item(r, BaselineColumn)->checkState() == Qt::Checked;
            t.group = m_targets->item(r, GroupColumn)->text().trimmed().toStdString();
            p.targets.push_back(std::move(t));
        }
        RunConfig base = m_base;
        for (const RunSetting& setting : runSettings()) {
            const QLineEdit* edit = m_load.value(keyOf(setting));
            if (!edit || !edit->isEnabled()) continue;
            if (Status st = setting.read(base, text(edit)); !st)
                throw FormProblem { std::string(setting.label) + ": " + st.error() };
        }
        const std::string axis = m_axis->currentData().toString().toStdString();
        if (axis == KEPT_LEVELS) {
            p.levels = m_keptLevels;
            p.axis = m_values->property("keptAxis").toString().toStdString();
        } else if (axis.empty()) {
            p.levels.push_back(LoadLevel { "", 1, base }); // labelled by the parser, as a plan without levels
        } else {
            p.axis = axis;
            const QStringList values
                = m_values->text().split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
            if (values.isEmpty()) throw FormProblem { "levels: type the " + axis + " of each level, e.g. 25, 50, 100" };
            const RunSetting* setting = findRunSetting(axis);
            for (const QString& v : values) {
                LoadLevel level { "", 0, base };
                const std::string value = v == QLatin1String("off") ? std::string() : v.toStdString();
                if (Status st = setting->read(level.load, value); !st)
                    throw FormProblem { "levels: '" + v.toStdString() + "': " + st.error() };
                if (m_matchThreads->isChecked() && axis == "connections") level.load.threads = level.load.connections;
                level.label = sweepLevelLabel(axis, level.load);
                p.levels.push_back(level);
            }
        }
        p.repetitions = static_cast<unsigned>(m_repetitions->value());
        p.durationUs = durationOf(m_duration, "duration");
        p.warmupUs = durationOf(m_warmup, "warm-up");
        p.cooldownUs = durationOf(m_cooldown, "cool-down");
        p.order = static_cast<ExperimentOrder>(m_order->currentData().toInt());
        for (const QString& expr : m_slos->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            if (expr.trimmed().isEmpty()) continue;
            auto slo = parseSlo(expr.trimmed().toStdString());
            if (!slo) throw FormProblem { "SLOs: " + slo.error() };
            p.slos.push_back(*slo);
        }
    } catch (const FormProblem& problem) {
        return Error { problem.message };
    }
    // Written and read back by the plan's owner: what is saved, created and run is what it reads.
    return parseExperimentPlan(experimentPlanToJson(p));
}

QString PlanEditor::summaryText() const
{
    return m_summary->text();
}

void PlanEditor::updateSummary()
{
    if (m_filling) return;
    const Result<ExperimentPlan> p = plan();
    if (!p) {
        m_summary->setStyleSheet(errorTextStyle());
        m_summary->setText(tr("Not ready: %1").arg(QString::fromStdString(p.error())));
    } else {
        m_summary->setStyleSheet(QString());
        QString summary = QString::fromStdString(planSummaryText(*p));
        if (!p->slos.empty()) summary += tr(". Every run is judged by %1").arg(m_slos->text().trimmed());
        m_summary->setText(summary);
    }
    m_create->setEnabled(p.ok() && m_doc && !m_doc->isReadOnly());
    m_createAndRun->setEnabled(m_create->isEnabled());
}

bool PlanEditor::openPlanFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_summary->setStyleSheet(errorTextStyle());
        m_summary->setText(tr("%1: %2").arg(QFileInfo(path).fileName(), file.errorString()));
        return false;
    }
    auto parsed = parseExperimentPlan(file.readAll().toStdString());
    if (!parsed) {
        m_summary->setStyleSheet(errorTextStyle());
        m_summary->setText(tr("%1: %2").arg(QFileInfo(path).fileName(), QString::fromStdString(parsed.error())));
        return false;
    }
    setPlan(*parsed);
    return true;
}

bool PlanEditor::savePlanFile(const QString& path, QString* error)
{
    const Result<ExperimentPlan> p = plan();
    if (!p) {
        if (error) *error = QString::fromStdString(p.error());
        return false;
    }
    const std::string json = experimentPlanToJson(*p, 2) + "\n";
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || file.write(json.data(), static_cast<qint64>(json.size())) != static_cast<qint64>(json.size())) {
        if (error) *error = file.errorString();
        return false;
    }
    return true;
}

void PlanEditor::askOpen()
{
    const QString path
        = QFileDialog::getOpenFileName(this, tr("Experiment plan"), QString(), tr("Experiment plans (*.json)"));
    if (!path.isEmpty()) openPlanFile(path);
}

void PlanEditor::askSave()
{
    const QString name = m_name->text().trimmed().isEmpty() ? QStringLiteral("experiment") : m_name->text().trimmed();
    const QString path
        = chooseSaveFile(this, tr("Save the plan"), name + QStringLiteral(".json"), tr("Experiment plans (*.json)"));
    if (path.isEmpty()) return;
    QString error;
    if (!savePlanFile(path, &error)) {
        m_summary->setStyleSheet(errorTextStyle());
        m_summary->setText(tr("Not saved: %1").arg(error));
    }
}

void PlanEditor::finish(bool run)
{
    if (!plan()) return;
    m_runAfter = run;
    accept();
}

} // namespace wb::ui
