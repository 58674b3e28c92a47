#pragma once
// wrkbench-cli study --db FILE --runs RANGES [--variant-by target | --variant-by-tags T1,T2,...]
//     [--group-by-tags G1,G2,...] [--level connections|threads|rate|none] [--baseline NAME]
//     [--metric total|per-thread[,backend-cv,backend-max-min,front-door-share]] [--name NAME] [--markdown OUT] [--csv
//     OUT]
// Builds an experiment's results table from stored runs, with nothing run, and
// stores it as an experiment of kind 'study' (engine/experiment/study.h).

#include "experimentcommand.h"

#include <string>

namespace CLI {
class App;
}

namespace wb::cli {

struct StudyArgs
{
    std::string dbPath;
    std::string runs; ///< "1-8,12"
    std::string variantBy = "target";
    std::string variantTags; ///< "native,docker,kubernetes"
    std::string groupTags;
    std::string level = "connections";
    std::string baseline;
    std::string metric = "total";
    std::string name;
    ExperimentReportArgs report;
};

void addStudyCommand(CLI::App& app, StudyArgs& args);
/// Stores the study and prints its table (or writes the reports). Exit code 0,
/// 1 (session error, bad input: one line, nothing stored) or 2 (usage).
int studyCommand(const StudyArgs& args);

} // namespace wb::cli
