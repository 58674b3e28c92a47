// The Loaders field's text (parse/placement.h): every form, its inverse, and refusals.

#include "parse/placement.h"

#include <gtest/gtest.h>

using namespace wb;

namespace {

TEST(Placement, ParsesEveryForm)
{
    EXPECT_EQ(parseLoaderPlacement("")->count, 1u);
    EXPECT_FALSE(parseLoaderPlacement("1")->distributed());
    auto local = parseLoaderPlacement(" 4 local ");
    ASSERT_TRUE(local);
    EXPECT_EQ(local->count, 4u);
    EXPECT_TRUE(local->distributed());
    auto kube = parseLoaderPlacement("8 kubernetes namespace=load context=gke image=r/w:1 cpu=2 memory=1Gi");
    ASSERT_TRUE(kube) << kube.error();
    EXPECT_EQ(kube->on, LoaderPlacement::On::Kubernetes);
    EXPECT_EQ(kube->kubeNamespace, "load");
    EXPECT_EQ(kube->kubeContext, "gke");
    EXPECT_EQ(kube->image, "r/w:1");
    EXPECT_EQ(kube->podCpu, "2");
    EXPECT_EQ(kube->podMemory, "1Gi");
    EXPECT_EQ(*parseLoaderPlacement(loaderPlacementText(*kube)), *kube);
    EXPECT_EQ(loaderPlacementText(*parseLoaderPlacement("1 kubernetes")), "1 kubernetes");
    EXPECT_EQ(loaderPlacementText(*parseLoaderPlacement("3")), "3");
}

TEST(Placement, RemoteLoadersByName)
{
    auto remote = parseLoaderPlacement("remote vm1, 10.0.0.5:7450,vm3");
    ASSERT_TRUE(remote) << remote.error();
    EXPECT_EQ(remote->on, LoaderPlacement::On::Agents);
    EXPECT_EQ(remote->count, 3u);
    EXPECT_EQ(remote->agents, (std::vector<std::string> { "vm1", "10.0.0.5:7450", "vm3" }));
    EXPECT_TRUE(remote->distributed());
    EXPECT_EQ(loaderPlacementText(*remote), "remote vm1, 10.0.0.5:7450, vm3");
    EXPECT_EQ(*parseLoaderPlacement(loaderPlacementText(*remote)), *remote);
    // One agent is still remote: "run it there".
    EXPECT_TRUE(parseLoaderPlacement("remote vm1")->distributed());
    EXPECT_NE(parseLoaderPlacement("remote").error().find("name the remote loaders"), std::string::npos);
    EXPECT_FALSE(parseLoaderPlacement("remote , ,"));
}

TEST(Placement, RefusalsNameTheWord)
{
    EXPECT_NE(parseLoaderPlacement("four").error().find("'four' is not a number"), std::string::npos);
    EXPECT_FALSE(parseLoaderPlacement("0"));
    EXPECT_FALSE(parseLoaderPlacement("10001"));
    EXPECT_NE(parseLoaderPlacement("2 mars").error().find("'mars'"), std::string::npos);
    EXPECT_NE(parseLoaderPlacement("2 kubernetes zone=a").error().find("unknown key 'zone'"), std::string::npos);
    EXPECT_NE(parseLoaderPlacement("2 kubernetes image").error().find("KEY=VALUE"), std::string::npos);
    EXPECT_FALSE(parseLoaderPlacement("2 local extra"));
}

} // namespace
