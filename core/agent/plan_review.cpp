#include "core/agent/plan_review.hpp"

#include "core/agent/plan_file.hpp"

namespace rio {
namespace {

bool blank(const std::string& s) {
    return s.find_first_not_of(" \t\r\n") == std::string::npos;
}

std::string quoted(const std::string& passage) {
    std::string out;
    std::size_t at = 0;
    while (at <= passage.size()) {
        std::size_t nl = passage.find('\n', at);
        std::string line = passage.substr(at, nl == std::string::npos ? nl : nl - at);
        if (nl == std::string::npos && line.empty() && at > 0) break; // a final newline
        out += line.empty() ? ">\n" : "> " + line + "\n";
        if (nl == std::string::npos) break;
        at = nl + 1;
    }
    return out;
}

} // namespace

std::optional<std::string> comments_problem(const std::vector<PlanComment>& comments) {
    for (std::size_t i = 0; i < comments.size(); ++i) {
        const PlanComment& c = comments[i];
        std::string where = "params.comments[" + std::to_string(i) + "]";
        if (blank(c.quote)) return where + ".quote is empty: quote the passage the comment is on";
        if (blank(c.text)) return where + ".text is empty";
        if (c.line && *c.line == 0) return where + ".line counts from 1";
        if (c.end_line && !c.line) return where + ".end_line needs line";
        if (c.end_line && *c.end_line < *c.line) return where + ".end_line is before line";
    }
    return std::nullopt;
}

std::string comment_place(const ReviewComment& comment) {
    if (!comment.line) return {};
    if (!comment.end_line || *comment.end_line == *comment.line)
        return "line " + std::to_string(*comment.line);
    return "lines " + std::to_string(*comment.line) + "-" + std::to_string(*comment.end_line);
}

std::string quoted_comments(const std::vector<ReviewComment>& comments) {
    std::string out;
    for (std::size_t i = 0; i < comments.size(); ++i) {
        const ReviewComment& c = comments[i];
        std::string place = comment_place(c);
        out += (i ? "\n" : "") + std::string("Comment ") + c.id +
               (place.empty() ? ", on this passage" : ", on " + place + " of the plan") +
               (c.detached ? " (no longer in the plan)" : "") + ":\n" + quoted(c.quote) + "\n" +
               c.text + "\n";
        for (const CommentReply& r : c.replies)
            out += (r.author == CommentAuthor::model ? "You replied: " : "They replied: ") +
                   r.text + "\n";
    }
    return out;
}

std::string unknown_addresses_note(const std::vector<std::string>& ids) {
    if (ids.empty()) return {};
    std::string list;
    for (const std::string& id : ids)
        list += (list.empty() ? "" : ", ") + id;
    return "Your plan's addresses named comments it does not have: " + list +
           ". Only the ids the user's comments were given can be addressed.";
}

std::string review_section(const PlanReview& review) {
    std::string out(review_heading);
    out += "\n";
    out += review.approved ? "Approved with notes." : "Changes requested.";
    out += "\n";
    if (!review.feedback.empty()) out += "\nFeedback: " + review.feedback + "\n";
    for (const ReviewComment& c : review.comments) {
        std::string place = comment_place(c);
        if (!place.empty()) place[0] = static_cast<char>(place[0] - 'a' + 'A');
        out += "\n**" + (place.empty() ? std::string("On a passage") : place) + " (" + c.id +
               ")**\n\n" + quoted(c.quote) + "\n" + c.text + "\n";
    }
    return out;
}

} // namespace rio
